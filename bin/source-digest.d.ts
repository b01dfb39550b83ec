/** Where the build records the digest of the source it was made from, under the checkout's root. */
export declare const DIGEST_FILE: string;
/** The digest of the source under `root`: every file's path and content, in a fixed order. */
export declare function sourceDigest(root: string): string;
/** Whether the build under `root` was made from the source as it is now. */
export declare function buildIsCurrent(root: string): boolean;
