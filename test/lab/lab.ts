import { access, chmod, chown, mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { selfserviceTypes, statuses } from '../../src/reference-server/data.js';
import { freePort } from '../helpers/free-port.js';
import {
  fpmConf,
  HTPASSWD,
  htpasswdFile,
  httpdConf,
  NGINX_INCLUDES,
  nginxConf,
  type ApacheSetup,
  type LimitReq,
  type NginxSite,
  type SitePaths,
} from './configs.js';
import { accepts, startProcess, waitUntil, type LabProcess } from './processes.js';
import type { LabTools } from './tools.js';
import { removeFolder } from '../helpers/safety-net.js';

const APP_DIR = resolve(import.meta.dirname, 'app');

/** Where the lab application looks for the credentials, in order (see app/index.php). */
export type AuthorizationSource = 'PHP_AUTH_USER' | 'HTTP_AUTHORIZATION' | 'REDIRECT_HTTP_AUTHORIZATION';
export const EVERY_SOURCE: AuthorizationSource[] = ['PHP_AUTH_USER', 'HTTP_AUTHORIZATION', 'REDIRECT_HTTP_AUTHORIZATION'];

export interface SiteSetup {
  name: string;
  server: { kind: 'apache'; setup: ApacheSetup } | { kind: 'nginx'; site: NginxSite; limitReq?: LimitReq };
  /** The .htaccess as the application ships it, or with the rule that copies the Authorization header taken out. */
  htaccess: 'shipped' | 'without-authorization-rule';
  authorizationSources: AuthorizationSource[];
}

export interface RunningSite {
  url: string;
  /** What the web server wrote to its error log so far. */
  errorLog(): Promise<string>;
  stop(): Promise<void>;
}

/** Files must be readable by www-data, whatever the umask of the test run. */
async function openToWebServer(dir: string): Promise<void> {
  await chmod(dir, 0o755);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isDirectory()) await openToWebServer(path);
    else if (entry.isFile()) await chmod(path, 0o644);
  }
}

async function wwwData(): Promise<{ uid: number; gid: number }> {
  const line = (await readFile('/etc/passwd', 'utf8')).split('\n').find((entry) => entry.startsWith('www-data:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) throw new Error('no www-data user in /etc/passwd');
  return { uid: Number(uid), gid: Number(gid) };
}

async function htaccess(variant: SiteSetup['htaccess']): Promise<string> {
  const shipped = await readFile(join(APP_DIR, '.htaccess'), 'utf8');
  if (variant === 'shipped') return shipped;
  const without = shipped
    .split('\n')
    .filter((line) => !line.includes('Authorization'))
    .join('\n');
  if (without === shipped || !without.includes('RewriteRule ^ index.php'))
    throw new Error('the .htaccess no longer has the expected rules');
  return without;
}

/** A temporary web hosting lab: one PHP-FPM pool, and as many Apache or nginx sites as the tests ask for, all on loopback. */
export class Lab {
  private readonly processes = new Set<LabProcess>();
  private sites = 0;

  private constructor(
    readonly tools: LabTools,
    readonly token: string,
    private readonly root: string,
    private readonly fpmSocket: string,
  ) {}

  static async start(tools: LabTools, token: string): Promise<Lab> {
    const root = await mkdtemp(join(tmpdir(), 'hosting-lab-'));
    const fpmDir = join(root, 'fpm');
    await mkdir(fpmDir);
    const socket = join(fpmDir, 'fpm.sock');
    await writeFile(join(fpmDir, 'fpm.conf'), fpmConf(fpmDir, socket));
    await openToWebServer(root);
    const lab = new Lab(tools, token, root, socket);
    try {
      const fpm = await startProcess('php-fpm', tools.phpFpm, ['-y', join(fpmDir, 'fpm.conf'), '-F'], join(fpmDir, 'fpm.out'));
      lab.processes.add(fpm);
      await waitUntil(fpm, 'socket', () =>
        access(socket).then(
          () => true,
          () => false,
        ),
      );
    } catch (error) {
      await lab.close();
      throw error;
    }
    return lab;
  }

  /**
   * Writes the site (application, .htaccess, data exported from the reference server; for nginx, a password file and
   * links to Debian's include files) and starts its web server.
   */
  async serve(site: SiteSetup): Promise<RunningSite> {
    this.sites += 1;
    const dir = join(this.root, `${this.sites}-${site.name}`);
    const docRoot = join(dir, 'htdocs');
    await mkdir(docRoot, { recursive: true });
    await writeFile(join(docRoot, 'index.php'), await readFile(join(APP_DIR, 'index.php')));
    await writeFile(join(docRoot, '.htaccess'), await htaccess(site.htaccess));
    const appData = { token: this.token, authorizationSources: site.authorizationSources, statuses, selfserviceTypes };
    await writeFile(join(dir, 'app-data.json'), JSON.stringify(appData));
    if (site.server.kind === 'nginx') {
      await writeFile(htpasswdFile(dir), HTPASSWD);
      for (const name of NGINX_INCLUDES) await symlink(join('/etc/nginx', name), join(dir, name));
    }
    await openToWebServer(dir);
    if (site.server.kind === 'apache' && site.server.setup.php === 'fcgid') {
      const { uid, gid } = await wwwData();
      await mkdir(join(dir, 'fcgid'));
      await chown(join(dir, 'fcgid'), uid, gid);
    }
    const { server, port } = await this.startWebServer(site, dir, docRoot);
    return {
      url: `http://127.0.0.1:${port}`,
      errorLog: () => readFile(join(dir, 'error.log'), 'utf8').catch(() => ''),
      stop: async () => {
        this.processes.delete(server);
        await server.stop();
      },
    };
  }

  private async startWebServer(site: SiteSetup, dir: string, docRoot: string): Promise<{ server: LabProcess; port: number }> {
    // A free port can be taken between the probe and the bind: try a few.
    for (let attempt = 1; ; attempt += 1) {
      const paths: SitePaths = { dir, docRoot, port: await freePort(), fpmSocket: this.fpmSocket };
      const server = await this.launch(site, paths);
      this.processes.add(server);
      try {
        await waitUntil(server, `listener on port ${paths.port}`, () => accepts(paths.port));
        return { server, port: paths.port };
      } catch (error) {
        this.processes.delete(server);
        await server.stop();
        if (attempt >= 3) throw error;
      }
    }
  }

  private async launch(site: SiteSetup, paths: SitePaths): Promise<LabProcess> {
    const log = join(paths.dir, 'server.out');
    if (site.server.kind === 'nginx') {
      if (!this.tools.nginx) throw new Error('nginx is not installed');
      const conf = join(paths.dir, 'nginx.conf');
      await writeFile(conf, nginxConf(paths, site.server.site, site.server.limitReq));
      return startProcess('nginx', this.tools.nginx, ['-e', join(paths.dir, 'error.log'), '-c', conf, '-g', 'daemon off;'], log);
    }
    const conf = join(paths.dir, 'httpd.conf');
    await writeFile(conf, httpdConf(site.server.setup, paths, this.tools));
    // -DFOREGROUND keeps "-k start" attached, so the lab owns the process group and can always stop it.
    return startProcess('apache2', this.tools.apache2, ['-f', conf, '-k', 'start', '-DFOREGROUND'], log);
  }

  async close(): Promise<void> {
    await Promise.all([...this.processes].map((server) => server.stop()));
    this.processes.clear();
    await removeFolder(this.root);
  }
}
