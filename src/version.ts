/**
 * mcpkit's version, as its clients and the CLI report it. Kept equal to package.json's by a test:
 * reading package.json at run time would tie every module to where it sits in `dist/`.
 */
export const VERSION = "0.1.0";
