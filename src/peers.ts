// prettier and TypeScript are peer dependencies: the project installs them, and may not have.

/** The peers generate needs, with the releases it works with (package.json `peerDependencies`). */
const PEERS = { prettier: "prettier@^3", typescript: "typescript@^5" } as const;

/** A peer dependency the project has not installed: said with how to install it, never as a crash. */
export class MissingPeerError extends Error {
  constructor(readonly peer: keyof typeof PEERS) {
    super(
      `${peer} is not installed, and generate needs it (projector ${peer === "prettier" ? "formats its output" : "prints the spec's types"} with it)\n` +
        `  help: install it beside projector: npm install --save-dev ${PEERS[peer]}`,
    );
    this.name = "MissingPeerError";
  }
}

/** What `find` gives, or MissingPeerError when it cannot find the peer itself (not when the peer fails otherwise). */
export async function withPeer<T>(peer: keyof typeof PEERS, find: () => T | Promise<T>): Promise<T> {
  try {
    return await find();
  } catch (error) {
    throw notFound(peer, error) ? new MissingPeerError(peer) : error;
  }
}

/** withPeer, for a `find` that does not wait. */
export function withPeerSync<T>(peer: keyof typeof PEERS, find: () => T): T {
  try {
    return find();
  } catch (error) {
    throw notFound(peer, error) ? new MissingPeerError(peer) : error;
  }
}

const notFound = (peer: string, error: unknown) => {
  const { code, message } = error as NodeJS.ErrnoException;
  return (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") && String(message).includes(`'${peer}`);
};
