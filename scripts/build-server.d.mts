/** scripts/build-server.mjs, for the TypeScript that starts the server (e2e, tests, bench). */
export declare const SERVER_ENTRY: string;
export declare function serverBuildIsStale(): boolean;
export declare function buildServer(opts?: { force?: boolean; quiet?: boolean }): Promise<boolean>;
