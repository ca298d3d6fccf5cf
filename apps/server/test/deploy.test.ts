import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  lintCompose,
  lintDeploy,
  lintDockerfile,
  lintNginx,
  parseYaml,
} from '../../../scripts/lint-deploy.mjs';

/** The container recipe (deploy/) checked without a container engine: scripts/lint-deploy.mjs. */
const ROOT = resolve(import.meta.dirname, '../../..');
const DEPLOY = join(ROOT, 'deploy');
const read = (f: string) => readFileSync(join(DEPLOY, f), 'utf8');
const compose = () => parseYaml(read('compose.yaml'));

describe('deploy/ container recipe', () => {
  it('Dockerfile, compose.yaml and nginx.conf check out', () => {
    expect(lintDeploy()).toEqual([]);
  });

  it('compose: PostgreSQL, Redis, two kefu nodes on them, a proxy publishing a port', () => {
    const doc = compose() as { services: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.services).sort()).toEqual(['kefu1', 'kefu2', 'postgres', 'proxy', 'redis']);
    expect(doc.services.kefu2!.extends).toEqual({ service: 'kefu1' });
    expect(doc.services.proxy!.ports).toEqual(['8080:80']);
  });

  it('finds what would break a container', () => {
    const docker = read('Dockerfile');
    expect(
      lintDockerfile(docker.replace(/^CMD \[.*\]$/m, 'CMD node apps/server/dist/main.mjs'), ROOT),
    ).toContain(`line ${docker.split('\n').length - 1}: CMD must be a JSON array (exec form)`);
    expect(lintDockerfile(`${docker}\nCOPY missing.txt /x\n`, ROOT).join()).toContain(
      'missing.txt is not in the build context',
    );
    expect(lintDockerfile(docker.replaceAll('--from=build', '--from=builder'), ROOT).join()).toContain(
      'no stage named builder',
    );
    expect(lintDockerfile(`${docker}\nCOPYY a b\n`, ROOT).join()).toContain('unknown instruction COPYY');

    const broken = compose() as {
      services: Record<string, { environment?: Record<string, string>; volumes?: string[] }>;
    };
    broken.services.kefu1!.environment!.REDIS_URL = 'redis://localhost:6379';
    broken.services.kefu1!.environment!.KEFU_NO_SUCH_SETTING = 'x';
    broken.services.kefu1!.volumes = ['files:/data'];
    expect(lintCompose(broken, DEPLOY, ROOT)).toEqual(
      expect.arrayContaining([
        'kefu1: REDIS_URL does not point at the redis service',
        'kefu1: the server does not read KEFU_NO_SUCH_SETTING',
        'kefu1: volume files is not declared',
        'kefu2: REDIS_URL does not point at the redis service',
      ]),
    );
    expect(() => parseYaml('a: &x 1\nb: *x\n')).toThrow('unsupported YAML');
    expect(() => parseYaml('a:\n  b: 1\n c: 2\n')).toThrow('bad indentation');

    const services = new Set(['kefu1', 'kefu2']);
    const nginx = read('nginx.conf');
    expect(lintNginx(nginx.replace(/proxy_set_header Upgrade .*\n/, ''), services)).toContain(
      'websocket Upgrade header not passed',
    );
    expect(lintNginx(nginx.replace('ip_hash;', ''), services)).toContain(
      'no sticky upstream (socket.io polling needs one)',
    );
    expect(lintNginx(nginx.replace('server kefu2:8080;', 'server kefu3:8080;'), services).join()).toContain(
      'upstream kefu3 is not a service',
    );
    expect(lintNginx(nginx.replace('listen 80;', 'listen 80'), services).join()).toContain(
      'does not end with ;',
    );
  });
});
