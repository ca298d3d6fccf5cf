// Checks the container recipe in deploy/ without a container engine (none runs here): the Dockerfile's
// instructions, stages and copied paths; the compose file's services, references, ports and environment
// (against what the server reads); nginx.conf's syntax and upstreams. `node scripts/lint-deploy.mjs`
// prints the problems and exits 1 when there are any.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The YAML the compose file is written in: block mappings, `- scalar` lists, flow lists of scalars,
 * plain or quoted scalars, comments. Anything else (anchors, flow mappings, multi-line strings) is refused,
 * so the file stays readable and this check stays exact.
 */
export function parseYaml(text) {
  const lines = [];
  for (const [i, raw] of text.split('\n').entries()) {
    if (/^\s*(#.*)?$/.test(raw)) continue;
    if (raw.includes('\t')) throw new Error(`line ${i + 1}: tab`);
    const indent = raw.length - raw.trimStart().length;
    lines.push({ n: i + 1, indent, text: stripComment(raw.trim()) });
  }
  let pos = 0;
  const block = (indent) => {
    const first = lines[pos];
    if (!first || first.indent !== indent) throw new Error(`line ${first?.n ?? 'end'}: bad indentation`);
    if (first.text.startsWith('- ')) {
      const list = [];
      while (pos < lines.length && lines[pos].indent === indent && lines[pos].text.startsWith('- ')) {
        list.push(scalar(lines[pos].text.slice(2), lines[pos].n));
        pos++;
      }
      return list;
    }
    const map = {};
    while (pos < lines.length && lines[pos].indent === indent) {
      const { n, text: t } = lines[pos];
      const m = /^([A-Za-z0-9_.-]+):(?:\s+(.*))?$/.exec(t);
      if (!m) throw new Error(`line ${n}: expected "key: value"`);
      if (m[1] in map) throw new Error(`line ${n}: duplicate key ${m[1]}`);
      pos++;
      if (m[2] !== undefined) map[m[1]] = scalar(m[2], n);
      else if (pos < lines.length && lines[pos].indent > indent) map[m[1]] = block(lines[pos].indent);
      else map[m[1]] = null;
    }
    if (pos < lines.length && lines[pos].indent > indent)
      throw new Error(`line ${lines[pos].n}: bad indentation`);
    return map;
  };
  const out = block(0);
  if (pos !== lines.length) throw new Error(`line ${lines[pos].n}: bad indentation`);
  return out;
}

function stripComment(s) {
  let q = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (q) {
      if (c === q) q = '';
    } else if (c === '"' || c === "'") q = c;
    else if (c === '#' && (i === 0 || s[i - 1] === ' ')) return s.slice(0, i).trimEnd();
  }
  return s;
}

function scalar(s, n) {
  if (/^[&*!|>{]/.test(s)) throw new Error(`line ${n}: unsupported YAML (${s[0]})`);
  if (s.startsWith('[')) {
    if (!s.endsWith(']')) throw new Error(`line ${n}: unterminated list`);
    const body = s.slice(1, -1).trim();
    if (!body) return [];
    const items = [];
    const re = /\s*("(?:[^"\\]|\\.)*"|'[^']*'|[^,]+)\s*(,|$)/gy;
    let m;
    while (re.lastIndex < body.length && (m = re.exec(body))) items.push(scalar(m[1].trim(), n));
    return items;
  }
  if (s.startsWith('"')) return JSON.parse(s);
  if (s.startsWith("'")) return s.slice(1, -1).replaceAll("''", "'");
  return s;
}

const INSTRUCTIONS = new Set([
  'FROM',
  'RUN',
  'CMD',
  'LABEL',
  'EXPOSE',
  'ENV',
  'ADD',
  'COPY',
  'ENTRYPOINT',
  'VOLUME',
  'USER',
  'WORKDIR',
  'ARG',
  'ONBUILD',
  'STOPSIGNAL',
  'HEALTHCHECK',
  'SHELL',
]);

/** Problems of a Dockerfile (`root`: the build context, for COPY sources). */
export function lintDockerfile(text, root) {
  const problems = [];
  const instructions = [];
  let current = null;
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (!current && (line === '' || line.startsWith('#'))) continue;
    if (current) current.args += ` ${line.replace(/\\$/, '').trim()}`;
    else {
      const m = /^(\S+)\s*(.*)$/.exec(line);
      current = { n: i + 1, op: m[1].toUpperCase(), args: m[2].replace(/\\$/, '').trim() };
      if (m[1] !== m[1].toUpperCase()) problems.push(`line ${i + 1}: write ${m[1]} in capitals`);
    }
    if (!line.endsWith('\\')) {
      instructions.push(current);
      current = null;
    }
  }
  if (current) problems.push(`line ${current.n}: continuation runs off the end`);
  const stages = new Set();
  let sawFrom = false;
  for (const ins of instructions) {
    if (!INSTRUCTIONS.has(ins.op)) problems.push(`line ${ins.n}: unknown instruction ${ins.op}`);
    if (ins.op === 'FROM') {
      sawFrom = true;
      const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(ins.args);
      if (!m) problems.push(`line ${ins.n}: FROM <image> [AS <name>]`);
      else if (m[2]) stages.add(m[2]);
    } else if (!sawFrom && ins.op !== 'ARG') problems.push(`line ${ins.n}: ${ins.op} before FROM`);
    if (ins.op === 'COPY' || ins.op === 'ADD') {
      const parts = ins.args.split(/\s+/);
      const from = parts.find((p) => p.startsWith('--from='));
      const paths = parts.filter((p) => !p.startsWith('--'));
      if (paths.length < 2) problems.push(`line ${ins.n}: ${ins.op} needs a source and a destination`);
      if (from) {
        if (!stages.has(from.slice(7))) problems.push(`line ${ins.n}: no stage named ${from.slice(7)}`);
      } else
        for (const src of paths.slice(0, -1))
          if (!existsSync(join(root, src)))
            problems.push(`line ${ins.n}: ${src} is not in the build context`);
    }
    if (
      ins.op === 'CMD' ||
      ins.op === 'ENTRYPOINT' ||
      (ins.op === 'HEALTHCHECK' && ins.args.includes('CMD'))
    ) {
      const json = ins.op === 'HEALTHCHECK' ? ins.args.slice(ins.args.indexOf('CMD') + 3).trim() : ins.args;
      try {
        const v = JSON.parse(json);
        if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw new Error();
      } catch {
        // The shell form runs under /bin/sh, which does not pass SIGTERM on to node.
        problems.push(`line ${ins.n}: ${ins.op} must be a JSON array (exec form)`);
      }
    }
  }
  if (!sawFrom) problems.push('no FROM');
  const cmd = instructions.filter((i) => i.op === 'CMD').pop();
  if (!cmd?.args.includes('apps/server/dist/main.mjs'))
    problems.push('CMD does not run apps/server/dist/main.mjs');
  return problems;
}

/** Problems of nginx.conf: balanced braces, terminated statements, upstream servers that exist. */
export function lintNginx(text, services) {
  const problems = [];
  let depth = 0;
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.replace(/#.*$/, '').trim();
    if (!line) continue;
    for (const c of line) {
      if (c === '{') depth++;
      if (c === '}') depth--;
    }
    if (depth < 0) problems.push(`line ${i + 1}: unbalanced }`);
    if (!/[;{}]$/.test(line)) problems.push(`line ${i + 1}: statement does not end with ;`);
    const server = /^server\s+([\w.-]+):(\d+)/.exec(line);
    if (server && !services.has(server[1]))
      problems.push(`line ${i + 1}: upstream ${server[1]} is not a service`);
  }
  if (depth !== 0) problems.push('unbalanced braces');
  if (!/proxy_set_header\s+Upgrade\s+\$http_upgrade/.test(text))
    problems.push('websocket Upgrade header not passed');
  if (!/\bip_hash;|\bsticky\b|\bhash\s/.test(text))
    problems.push('no sticky upstream (socket.io polling needs one)');
  return problems;
}

/** Environment variables the server reads (process.env / env.X in apps/server/src). */
function serverEnv(root) {
  const names = new Set();
  const dir = join(root, 'apps/server/src');
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || !e.name.endsWith('.ts') || e.name.endsWith('.test.ts')) continue;
    const src = readFileSync(join(e.parentPath, e.name), 'utf8');
    for (const m of src.matchAll(/\benv\.([A-Z][A-Z0-9_]+)|\benv,\s*'([A-Z][A-Z0-9_]+)'/g))
      names.add(m[1] ?? m[2]);
  }
  return names;
}

/** Problems of compose.yaml (as parsed) given the deploy directory. */
export function lintCompose(doc, deployDir, root) {
  const problems = [];
  const services = doc?.services ?? {};
  const volumes = doc?.volumes ?? {};
  const names = new Set(Object.keys(services));
  for (const want of ['postgres', 'redis', 'proxy'])
    if (!names.has(want)) problems.push(`no ${want} service`);
  const known = serverEnv(root);
  const merged = (name, seen = new Set()) => {
    const s = services[name] ?? {};
    const base = s.extends?.service;
    if (!base) return s;
    if (seen.has(name) || !names.has(base)) {
      problems.push(`${name}: extends ${base}, which is not a service`);
      return s;
    }
    const b = merged(base, new Set([...seen, name]));
    return { ...b, ...s, environment: { ...b.environment, ...s.environment } };
  };
  const nodes = [...names].filter((n) => merged(n).build || merged(n).image === services.kefu1?.image);
  const kefu = nodes.filter((n) => merged(n).environment?.DATABASE_URL !== undefined);
  if (kefu.length < 2) problems.push('fewer than two kefu nodes');
  for (const n of kefu) {
    const env = merged(n).environment ?? {};
    if (!/^postgres:\/\/[^@]+@postgres:\d+\//.test(env.DATABASE_URL ?? ''))
      problems.push(`${n}: DATABASE_URL does not point at the postgres service`);
    if (!/^redis:\/\/redis:\d+/.test(env.REDIS_URL ?? ''))
      problems.push(`${n}: REDIS_URL does not point at the redis service`);
    for (const k of Object.keys(env)) if (!known.has(k)) problems.push(`${n}: the server does not read ${k}`);
  }
  for (const [name, s] of Object.entries(services)) {
    if (!s || (!s.image && !s.build && !s.extends)) problems.push(`${name}: neither image nor build`);
    for (const dep of Object.keys(s?.depends_on ?? {}))
      if (!names.has(dep)) problems.push(`${name}: depends on unknown ${dep}`);
    for (const v of s?.volumes ?? []) {
      const src = String(v).split(':')[0];
      if (src.startsWith('.') || src.startsWith('/')) {
        if (!existsSync(join(deployDir, src))) problems.push(`${name}: ${src} does not exist`);
      } else if (!(src in volumes)) problems.push(`${name}: volume ${src} is not declared`);
    }
    for (const p of s?.ports ?? [])
      if (!/^\d+:\d+$/.test(String(p))) problems.push(`${name}: port ${p} is not host:container`);
    if (s?.build) {
      const file = join(deployDir, s.build.context ?? '.', s.build.dockerfile ?? 'Dockerfile');
      if (!existsSync(file)) problems.push(`${name}: ${file} does not exist`);
    }
  }
  if (!(services.proxy?.ports ?? []).length) problems.push('proxy publishes no port');
  return problems;
}

/** Every problem of deploy/ (an empty list: the recipe checks out). */
export function lintDeploy(deployDir = join(ROOT, 'deploy'), root = ROOT) {
  const problems = [];
  const read = (f) => readFileSync(join(deployDir, f), 'utf8');
  problems.push(...lintDockerfile(read('Dockerfile'), root).map((p) => `Dockerfile: ${p}`));
  let doc;
  try {
    doc = parseYaml(read('compose.yaml'));
  } catch (err) {
    problems.push(`compose.yaml: ${err.message}`);
  }
  if (doc) problems.push(...lintCompose(doc, deployDir, root).map((p) => `compose.yaml: ${p}`));
  const services = new Set(Object.keys(doc?.services ?? {}));
  problems.push(...lintNginx(read('nginx.conf'), services).map((p) => `nginx.conf: ${p}`));
  return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const problems = lintDeploy();
  for (const p of problems) console.error(p);
  console.log(problems.length ? `deploy: ${problems.length} problem(s)` : 'deploy: ok');
  process.exit(problems.length ? 1 : 0);
}
