import { readFolderBytes } from "../../src/output/listing.js";

/** The folder as it is on disk: its files' texts, path to contents. */
export async function readFolder(folder: string): Promise<{ files: Map<string, string> }> {
  const { files } = await readFolderBytes(folder);
  return { files: new Map([...files].map(([path, bytes]) => [path, bytes.toString("utf8")])) };
}
