/** scripts/lint-deploy.mjs, for its test. */
export declare function parseYaml(text: string): Record<string, unknown>;
export declare function lintDockerfile(text: string, root: string): string[];
export declare function lintNginx(text: string, services: Set<string>): string[];
export declare function lintCompose(doc: Record<string, unknown>, deployDir: string, root: string): string[];
export declare function lintDeploy(deployDir?: string, root?: string): string[];
