// Debian's nginx in front of a daemon, as a real installation runs it
// (README "Running Primeur for real"): deploy/nginx.conf with only its
// ports, certificate paths and upstream changed — the texts
// deploy/nginx_test.go replaces — wrapped as Debian's nginx.conf includes a
// site, everything it writes in a temporary directory so that it runs
// unprivileged. For the benches reaching the daemon as a browser of a real
// installation does: TLS and HTTP/2 (yearline.bench.ts,
// PRIMEUR_YEARLINE_VIA=nginx).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { X509Certificate, createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:https'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'

/** The name deploy/nginx.conf serves, and the certificate's. */
export const SITE = 'primeur.example.fr'

/** Debian's nginx (on PATH or in /usr/sbin, which a user's PATH may lack), or null. */
export function nginxBinary(): string | null {
  const dirs = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), '/usr/sbin']
  return dirs.map((d) => join(d, 'nginx')).find((p) => existsSync(p)) ?? null
}

/**
 * Debian's /etc/nginx/nginx.conf as it includes a site (gzip on as
 * Debian's has it), every path nginx writes under dir, and an access log
 * naming each request's protocol.
 */
const mainConfig = (dir: string) => `worker_processes 1;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
	include /etc/nginx/mime.types;
	default_type application/octet-stream;
	log_format bench '$server_protocol $status $body_bytes_sent $request_time "$request_method $uri"';
	access_log ${dir}/access.log bench;
	gzip on;
	client_body_temp_path ${dir}/client_body;
	proxy_temp_path ${dir}/proxy;
	fastcgi_temp_path ${dir}/fastcgi;
	uwsgi_temp_path ${dir}/uwsgi;
	scgi_temp_path ${dir}/scgi;
	include ${dir}/sites-enabled/primeur;
}
`

export interface Nginx {
  /** https://primeur.example.fr:<port>: the browser must map the name to 127.0.0.1. */
  baseURL: string
  port: number
  /**
   * The certificate's public key, hashed as Chromium's
   * --ignore-certificate-errors-spki-list takes it: the certificate then
   * counts as valid, as a real one would (with --ignore-certificate-errors
   * the pages load, but nothing is cached and no service worker runs).
   */
  spki: string
  /** How many requests nginx served, by protocol (HTTP/1.1, HTTP/2.0), from its access log. */
  protocols: () => Record<string, number>
  /** Stops nginx and removes its directory. */
  stop: () => Promise<void>
}

/** Waits until something accepts connections on 127.0.0.1:port, or child exits. */
async function waitListening(port: number, child: ChildProcess, log: string) {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`nginx exited: ${existsSync(log) ? readFileSync(log, 'utf8') : ''}`)
    const up = await new Promise<boolean>((ok) => {
      const s = connect(port, '127.0.0.1')
      s.once('connect', () => {
        s.destroy()
        ok(true)
      })
      s.once('error', () => ok(false))
    })
    if (up) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`nginx does not listen on 127.0.0.1:${port}`)
}

/**
 * Starts nginx with deploy/nginx.conf (read from root) in front of
 * upstream (host:port), on the free ports given (http redirects, https
 * serves), with a self-signed certificate for SITE made by openssl.
 */
export async function startNginx({
  bin,
  root,
  upstream,
  httpPort,
  httpsPort,
}: {
  bin: string
  root: string
  upstream: string
  httpPort: number
  httpsPort: number
}): Promise<Nginx> {
  const dir = mkdtempSync(join(tmpdir(), 'primeur-nginx-'))
  const cert = join(dir, 'fullchain.pem')
  const key = join(dir, 'privkey.pem')
  let child: ChildProcess | null = null
  const stop = async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((ok) => child?.once('exit', ok))
      child.kill('SIGTERM')
      const timer = setTimeout(() => child?.kill('SIGKILL'), 20_000)
      await exited
      clearTimeout(timer)
    }
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '2',
        '-subj',
        `/CN=${SITE}`,
        '-addext',
        `subjectAltName=DNS:${SITE}`,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    )
    const replace: Record<string, string> = {
      'server 127.0.0.1:8080;': `server ${upstream};`,
      'listen 80;': `listen ${httpPort};`,
      'listen [::]:80;': `listen [::]:${httpPort};`,
      'listen 443 ssl http2;': `listen ${httpsPort} ssl http2;`,
      'listen [::]:443 ssl http2;': `listen [::]:${httpsPort} ssl http2;`,
      [`/etc/letsencrypt/live/${SITE}/fullchain.pem`]: cert,
      [`/etc/letsencrypt/live/${SITE}/privkey.pem`]: key,
    }
    let site = readFileSync(join(root, 'deploy', 'nginx.conf'), 'utf8')
    for (const [from, to] of Object.entries(replace)) {
      if (!site.includes(from)) throw new Error(`deploy/nginx.conf no longer holds "${from}": update ui/e2e/nginx.ts`)
      site = site.replaceAll(from, to)
    }
    mkdirSync(join(dir, 'sites-enabled'))
    writeFileSync(join(dir, 'sites-enabled', 'primeur'), site)
    const conf = join(dir, 'nginx.conf')
    writeFileSync(conf, mainConfig(dir))
    const log = join(dir, 'error.log')
    child = spawn(
      bin,
      ['-p', dir, '-c', conf, '-e', log, '-g', `daemon off; master_process off; pid ${join(dir, 'nginx.pid')};`],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    )
    await waitListening(httpsPort, child, log)
    await waitListening(httpPort, child, log)
  } catch (err) {
    await stop()
    throw new Error(`start nginx: ${err instanceof Error ? err.message : String(err)}`, { cause: err })
  }
  const protocols = () => {
    const counts: Record<string, number> = {}
    const log = join(dir, 'access.log')
    if (!existsSync(log)) return counts
    for (const line of readFileSync(log, 'utf8').split('\n')) {
      const proto = line.split(' ')[0]
      if (proto) counts[proto] = (counts[proto] ?? 0) + 1
    }
    return counts
  }
  const spki = createHash('sha256')
    .update(new X509Certificate(readFileSync(cert)).publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64')
  return { baseURL: `https://${SITE}:${httpsPort}`, port: httpsPort, spki, protocols, stop }
}

/**
 * A request to nginx at SITE from this process (whose resolver does not
 * know the name: the connection goes to 127.0.0.1, the name in SNI and
 * Host), the certificate not checked: the status, the body and the
 * Set-Cookie headers.
 */
export function siteRequest(
  port: number,
  method: string,
  path: string,
  { body, cookie }: { body?: unknown; cookie?: string } = {},
): Promise<{ status: number; body: string; cookies: string[] }> {
  const data = body === undefined ? undefined : JSON.stringify(body)
  return new Promise((ok, fail) => {
    const req = request(
      {
        host: SITE,
        port,
        method,
        path,
        rejectUnauthorized: false,
        lookup: (_host, opts, cb) =>
          (opts as { all?: boolean }).all
            ? (cb as (e: null, a: { address: string; family: number }[]) => void)(null, [
                { address: '127.0.0.1', family: 4 },
              ])
            : (cb as (e: null, a: string, f: number) => void)(null, '127.0.0.1', 4),
        headers: {
          ...(data ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data) } : {}),
          ...(cookie ? { Cookie: cookie } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          ok({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            cookies: res.headers['set-cookie'] ?? [],
          }),
        )
        res.on('error', fail)
      },
    )
    req.on('error', fail)
    req.end(data)
  })
}
