import type { Snippet } from './types.js';

/** The configuration lines a diagnosis hands to ops, each with where it goes. Debian paths; PHP 8.2 stands for your version. */
export const SNIPPETS = {
  authorizationRule: {
    label: "in the application's .htaccess (or in the <Directory> block of its folder)",
    lines: ['RewriteEngine On', 'RewriteCond %{HTTP:Authorization} .', 'RewriteRule .* - [E=HTTP_AUTHORIZATION:%{HTTP:Authorization}]'],
  },
  cgiToFpm: {
    label:
      'in the Apache configuration: remove the CGI handler (the "Action ... /cgi-bin/php" line and its AddHandler) and hand .php files to PHP-FPM',
    lines: [
      '# Debian/Ubuntu: apt-get install php8.2-fpm && a2enmod proxy_fcgi setenvif && a2enconf php8.2-fpm',
      '<FilesMatch "\\.php$">',
      '    SetHandler "proxy:unix:/run/php/php8.2-fpm.sock|fcgi://localhost"',
      '</FilesMatch>',
    ],
  },
  fpmHandler: {
    label: 'in the Apache configuration of the site: hand .php files to PHP-FPM, then reload Apache',
    lines: [
      '# Debian/Ubuntu: apt-get install php8.2-fpm && a2enmod proxy_fcgi setenvif && a2enconf php8.2-fpm',
      '<FilesMatch "\\.php$">',
      '    SetHandler "proxy:unix:/run/php/php8.2-fpm.sock|fcgi://localhost"',
      '</FilesMatch>',
    ],
  },
  modRewrite: {
    label: 'enable mod_rewrite, then reload Apache',
    lines: [
      'a2enmod rewrite && apache2ctl graceful',
      '# or, without a2enmod, in httpd.conf:',
      'LoadModule rewrite_module modules/mod_rewrite.so',
    ],
  },
  allowOverride: {
    label: "in the <Directory> block of the application's folder (your path), then reload Apache",
    lines: ['<Directory /var/www/helpdesk>', '    AllowOverride All', '</Directory>'],
  },
  fpmSocket: {
    label: "the socket in Apache's SetHandler must be the one the PHP-FPM pool listens on",
    lines: [
      '# Apache:  SetHandler "proxy:unix:/run/php/php8.2-fpm.sock|fcgi://localhost"',
      '# PHP-FPM pool (/etc/php/8.2/fpm/pool.d/www.conf):  listen = /run/php/php8.2-fpm.sock',
      'service php8.2-fpm start',
    ],
  },
  nginxTryFiles: {
    label: 'in the nginx server block of the application',
    lines: ['location / {', '    try_files $uri $uri/ /index.php?$query_string;', '}'],
  },
  nginxAuthorization: {
    label: 'in the nginx location that passes .php files to PHP-FPM, in place of a line that empties the header',
    lines: ['fastcgi_pass_request_headers on;', 'fastcgi_param HTTP_AUTHORIZATION $http_authorization;'],
  },
  nginxProxyAuthorization: {
    label: 'in the location of an nginx proxy in front (the one with proxy_pass), in place of proxy_set_header Authorization ""',
    lines: ['proxy_pass_request_headers on;', 'proxy_set_header Authorization $http_authorization;'],
  },
  nginxFpmSocket: {
    label: "the socket in nginx's fastcgi_pass must be the one the PHP-FPM pool listens on",
    lines: [
      '# nginx, in the location of .php files:  fastcgi_pass unix:/run/php/php8.2-fpm.sock;',
      '# PHP-FPM pool (/etc/php/8.2/fpm/pool.d/www.conf):  listen = /run/php/php8.2-fpm.sock',
      'service php8.2-fpm start',
    ],
  },
  nginxApiWithoutPassword: {
    label: 'in the nginx server block, beside the location that has auth_basic',
    lines: ['location /api/ {', '    auth_basic off;', '    try_files $uri $uri/ /index.php?$query_string;', '}'],
  },
  nginxRateLimitExemption: {
    label:
      "in nginx's http block, with the address the suite runs from in place of 203.0.113.7 (your zone's name and rate), then reload nginx",
    lines: [
      'geo $limited { default 1; 203.0.113.7 0; }',
      'map $limited $limit_key { 0 ""; 1 $binary_remote_addr; }',
      'limit_req_zone $limit_key zone=api:10m rate=5r/s;',
      '# in the location of the API: limit_req zone=api burst=20 nodelay;',
    ],
  },
} satisfies Record<string, Snippet>;
