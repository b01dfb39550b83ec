import { join } from 'node:path';
import { SNIPPETS } from '../../src/diagnosis/snippets.js';
import type { LabTools } from './tools.js';

/** How PHP is wired into Apache in one configuration of the lab. */
type PhpHandler = 'fpm' | 'cgi' | 'fcgid';

export interface ApacheSetup {
  php: PhpHandler;
  rewriteModule: boolean;
  allowOverride: 'All' | 'None';
  /** "RequestHeader unset Authorization early" in the server's configuration, as some sites add to keep a password from the back end. */
  unsetAuthorization?: boolean;
}

export interface SitePaths {
  dir: string;
  docRoot: string;
  port: number;
  fpmSocket: string;
}

function phpHandler(setup: ApacheSetup, site: SitePaths, tools: LabTools): { modules: string[]; lines: string[] } {
  if (setup.php === 'fpm') {
    return {
      modules: ['proxy', 'proxy_fcgi'],
      lines: ['<FilesMatch "\\.php$">', `    SetHandler "proxy:unix:${site.fpmSocket}|fcgi://localhost"`, '</FilesMatch>'],
    };
  }
  if (setup.php === 'cgi') {
    // The classic CGI set-up: .php files go through an Action to the php-cgi binary under /cgi-bin/.
    return {
      modules: ['cgi', 'actions', 'alias'],
      lines: [
        `ScriptAlias /cgi-bin/ ${tools.cgiBinDir}/`,
        `<Directory ${tools.cgiBinDir}>`,
        '    Options +ExecCGI',
        '    Require all granted',
        '</Directory>',
        'AddHandler application/x-httpd-php .php',
        `Action application/x-httpd-php /cgi-bin/${tools.phpCgiName}`,
      ],
    };
  }
  return {
    modules: ['fcgid'],
    lines: [
      `FcgidIPCDir ${join(site.dir, 'fcgid')}`,
      `FcgidProcessTableFile ${join(site.dir, 'fcgid', 'shm')}`,
      `FcgidWrapper ${join(tools.cgiBinDir, tools.phpCgiName)} .php`,
      '<FilesMatch "\\.php$">',
      '    SetHandler fcgid-script',
      '    Options +ExecCGI',
      '</FilesMatch>',
    ],
  };
}

/** A self-contained httpd.conf: Debian's modules, nothing from /etc/apache2/*.conf, loopback only. */
export function httpdConf(setup: ApacheSetup, site: SitePaths, tools: LabTools): string {
  const handler = phpHandler(setup, site, tools);
  const modules = [
    'mpm_prefork',
    'authz_core',
    'dir',
    'mime',
    ...(setup.rewriteModule ? ['rewrite'] : []),
    ...(setup.unsetAuthorization ? ['headers'] : []),
    ...handler.modules,
  ];
  return [
    'ServerRoot /etc/apache2',
    'ServerName 127.0.0.1',
    `Listen 127.0.0.1:${site.port}`,
    `PidFile ${join(site.dir, 'httpd.pid')}`,
    `DefaultRuntimeDir ${site.dir}`,
    `ErrorLog ${join(site.dir, 'error.log')}`,
    'LogLevel warn',
    'User www-data',
    'Group www-data',
    ...modules.map((name) => `LoadModule ${name}_module ${tools.apacheModules}/mod_${name}.so`),
    'StartServers 2',
    'MinSpareServers 1',
    'MaxSpareServers 4',
    'MaxRequestWorkers 8',
    'TypesConfig /etc/mime.types',
    `DocumentRoot ${site.docRoot}`,
    'DirectoryIndex index.php',
    `<Directory ${site.docRoot}>`,
    `    AllowOverride ${setup.allowOverride}`,
    '    Require all granted',
    '</Directory>',
    // "early" removes it before any .htaccess rule could copy it for PHP.
    ...(setup.unsetAuthorization ? ['RequestHeader unset Authorization early'] : []),
    ...handler.lines,
    '',
  ].join('\n');
}

export function fpmConf(dir: string, socket: string): string {
  return [
    '[global]',
    `pid = ${join(dir, 'fpm.pid')}`,
    `error_log = ${join(dir, 'fpm-error.log')}`,
    '',
    '[lab]',
    'user = www-data',
    'group = www-data',
    `listen = ${socket}`,
    'listen.owner = www-data',
    'listen.group = www-data',
    'pm = static',
    'pm.max_children = 4',
    '',
  ].join('\n');
}

/**
 * The nginx sites of the lab: the front controller served as Debian's snippet and the application's documentation
 * have it, and one site for each mistake seen in real set-ups.
 */
export const NGINX_SITES = [
  'front-controller',
  'authorization-param-emptied',
  'root-above-application',
  'no-front-controller',
  'fpm-socket-missing',
  'auth-basic',
  'auth-basic-api-exempt',
  'proxy-drops-authorization',
  'debian-default',
] as const;
export type NginxSite = (typeof NGINX_SITES)[number];

/** Files of /etc/nginx that a site's configuration includes by a relative path, as a Debian site does. */
export const NGINX_INCLUDES = ['snippets', 'fastcgi.conf', 'fastcgi_params'];

/** The password file of auth_basic: a staff account, which the API's token is not. */
export const htpasswdFile = (siteDir: string): string => join(siteDir, 'htpasswd');
export const HTPASSWD = 'staff:{PLAIN}staff-password\n';

/** The PHP-FPM socket of Debian's default site (sites-available/default names PHP 7.4): Debian 12 ships PHP 8.2. */
const DEBIAN_DEFAULT_SOCKET = '/run/php/php7.4-fpm.sock';

/** Every path that is not a file goes to the front controller, the query string kept. */
const FRONT_CONTROLLER = 'try_files $uri $uri/ /index.php?$query_string;';

/** Debian's way of handing .php files to PHP-FPM (snippets/fastcgi-php.conf), with PATH_INFO for /index.php/api/... */
function phpLocation(socket: string, extra: string[] = []): string[] {
  return [
    'location ~ \\.php(/|$) {',
    '  include snippets/fastcgi-php.conf;',
    ...extra.map((line) => `  ${line}`),
    `  fastcgi_pass unix:${socket};`,
    '}',
  ];
}

/** The server block of the application: its root, its routing and its PHP location, with the site's mistake in it. */
function applicationServer(site: SitePaths, variant: NginxSite, listen: string): string[] {
  const head = [`listen ${listen};`, `root ${site.docRoot};`, 'index index.php;'];
  switch (variant) {
    case 'authorization-param-emptied':
      return [...head, `location / { ${FRONT_CONTROLLER} }`, ...phpLocation(site.fpmSocket, ['fastcgi_param HTTP_AUTHORIZATION "";'])];
    case 'root-above-application':
      // A PHP location in the manner of Laravel's and Symfony's documentation, without a check that the script exists, and root one
      // folder above the one index.php is in.
      return [
        `listen ${listen};`,
        `root ${site.dir};`,
        'index index.php;',
        `location / { ${FRONT_CONTROLLER} }`,
        'location ~ ^/index\\.php(/|$) {',
        `  fastcgi_pass unix:${site.fpmSocket};`,
        '  fastcgi_split_path_info ^(.+\\.php)(/.*)$;',
        '  include fastcgi_params;',
        '  fastcgi_param SCRIPT_FILENAME $realpath_root$fastcgi_script_name;',
        '}',
      ];
    case 'no-front-controller':
      // Debian's default try_files, with a PHP location that takes /index.php/api/... as well.
      return [...head, 'location / { try_files $uri $uri/ =404; }', ...phpLocation(site.fpmSocket)];
    case 'debian-default':
      // Debian's default site (sites-available/default) as ops turn PHP on in it: index.php added to the index, its
      // commented PHP location uncommented, the socket the lab's pool listens on. The location takes paths ending in .php only.
      return [
        `listen ${listen};`,
        `root ${site.docRoot};`,
        'index index.php index.html index.htm index.nginx-debian.html;',
        'server_name _;',
        'location / {',
        '  try_files $uri $uri/ =404;',
        '}',
        'location ~ \\.php$ {',
        '  include snippets/fastcgi-php.conf;',
        `  fastcgi_pass unix:${site.fpmSocket};`,
        '}',
      ];
    case 'fpm-socket-missing':
      return [...head, `location / { ${FRONT_CONTROLLER} }`, ...phpLocation(DEBIAN_DEFAULT_SOCKET)];
    case 'auth-basic':
    case 'auth-basic-api-exempt':
      return [
        ...head,
        `location / { auth_basic "Staff only"; auth_basic_user_file ${htpasswdFile(site.dir)}; ${FRONT_CONTROLLER} }`,
        // The fix the diagnosis of the other site gives, as it gives it.
        ...(variant === 'auth-basic-api-exempt' ? SNIPPETS.nginxApiWithoutPassword.lines : []),
        ...phpLocation(site.fpmSocket),
      ];
    default:
      return [...head, `location / { ${FRONT_CONTROLLER} }`, ...phpLocation(site.fpmSocket)];
  }
}

/** The socket the application listens on behind the proxy front. */
const proxiedSocket = (site: SitePaths): string => join(site.dir, 'application.sock');

/**
 * nginx's limit_req in front of a site: every client limited to 5 requests a second with a burst of 3, or the same with
 * the tester's address exempt, as the rate-limited diagnosis gives the lines (the lab's tester is 127.0.0.1).
 */
export type LimitReq = 'every-client' | 'tester-exempt';

function limitReqLines(limitReq: LimitReq | undefined): { http: string[]; server: string[] } {
  if (limitReq === undefined) return { http: [], server: [] };
  const zone =
    limitReq === 'every-client'
      ? ['limit_req_zone $binary_remote_addr zone=api:1m rate=5r/s;']
      : SNIPPETS.nginxRateLimitExemption.lines
          .filter((line) => !line.startsWith('#'))
          .map((line) => line.replace('203.0.113.7', '127.0.0.1'));
  return { http: zone, server: ['limit_req zone=api burst=3 nodelay;'] };
}

/** A self-contained nginx.conf for one site of the lab, loopback only; relative includes resolve beside it (NGINX_INCLUDES). */
export function nginxConf(site: SitePaths, variant: NginxSite, limitReq?: LimitReq): string {
  const limits = limitReqLines(limitReq);
  const temp = (name: string): string => join(site.dir, `nginx-${name}`);
  const servers =
    variant === 'proxy-drops-authorization'
      ? [
          // A proxy in front of the application that keeps a password of its own from reaching it, and the token with it.
          [
            `listen 127.0.0.1:${site.port};`,
            'location / {',
            `  proxy_pass http://unix:${proxiedSocket(site)};`,
            '  proxy_set_header Host $host;',
            '  proxy_set_header Authorization "";',
            '}',
          ],
          applicationServer(site, 'front-controller', `unix:${proxiedSocket(site)}`),
        ]
      : [[...limits.server, ...applicationServer(site, variant, `127.0.0.1:${site.port}`)]];
  return [
    'worker_processes 1;',
    `pid ${join(site.dir, 'nginx.pid')};`,
    `error_log ${join(site.dir, 'error.log')} warn;`,
    'user www-data;',
    // Debian's figure: a proxied request holds four connections of the one worker (client, upstream, and the back end's two).
    'events { worker_connections 768; }',
    'http {',
    // As production sites often are: "Server: nginx" and error pages without the version. The recorded answers the
    // rules' self-tests read then hold nothing that changes with Debian's nginx package.
    '  server_tokens off;',
    '  access_log off;',
    `  client_body_temp_path ${temp('body')};`,
    `  fastcgi_temp_path ${temp('fastcgi')};`,
    `  proxy_temp_path ${temp('proxy')};`,
    `  uwsgi_temp_path ${temp('uwsgi')};`,
    `  scgi_temp_path ${temp('scgi')};`,
    ...limits.http.map((line) => `  ${line}`),
    ...servers.flatMap((lines) => ['  server {', ...lines.map((line) => `    ${line}`), '  }']),
    '}',
    '',
  ].join('\n');
}
