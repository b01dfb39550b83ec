import { join } from 'node:path';
import type { LabTools } from './tools.js';

/** How PHP is wired into Apache in one configuration of the lab. */
export type PhpHandler = 'fpm' | 'cgi' | 'fcgid';

export interface ApacheSetup {
  php: PhpHandler;
  rewriteModule: boolean;
  allowOverride: 'All' | 'None';
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
  const modules = ['mpm_prefork', 'authz_core', 'dir', 'mime', ...(setup.rewriteModule ? ['rewrite'] : []), ...handler.modules];
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

/** nginx in front of the same PHP-FPM pool, with the usual front-controller routing and nothing added for the header. */
export function nginxConf(site: SitePaths): string {
  const temp = (name: string): string => join(site.dir, `nginx-${name}`);
  return [
    'worker_processes 1;',
    `pid ${join(site.dir, 'nginx.pid')};`,
    `error_log ${join(site.dir, 'error.log')} warn;`,
    'user www-data;',
    'events { worker_connections 64; }',
    'http {',
    '  access_log off;',
    `  client_body_temp_path ${temp('body')};`,
    `  fastcgi_temp_path ${temp('fastcgi')};`,
    `  proxy_temp_path ${temp('proxy')};`,
    `  uwsgi_temp_path ${temp('uwsgi')};`,
    `  scgi_temp_path ${temp('scgi')};`,
    '  server {',
    `    listen 127.0.0.1:${site.port};`,
    `    root ${site.docRoot};`,
    '    index index.php;',
    '    location / { try_files $uri /index.php$is_args$args; }',
    '    location ~ \\.php(/|$) {',
    '      fastcgi_split_path_info ^(.+?\\.php)(/.*)$;',
    '      include /etc/nginx/fastcgi_params;',
    '      fastcgi_param SCRIPT_FILENAME $document_root$fastcgi_script_name;',
    '      fastcgi_param PATH_INFO $fastcgi_path_info;',
    `      fastcgi_pass unix:${site.fpmSocket};`,
    '    }',
    '  }',
    '}',
    '',
  ].join('\n');
}
