/**
 * Where nginx's documentation describes each directive an nginx diagnosis names: the API document leaves web servers
 * other than Apache to their own documentation.
 */
const MODULE_OF = {
  auth_basic: 'ngx_http_auth_basic_module',
  deny: 'ngx_http_access_module',
  fastcgi_param: 'ngx_http_fastcgi_module',
  fastcgi_pass: 'ngx_http_fastcgi_module',
  fastcgi_pass_request_headers: 'ngx_http_fastcgi_module',
  geo: 'ngx_http_geo_module',
  limit_req: 'ngx_http_limit_req_module',
  map: 'ngx_http_map_module',
  proxy_pass_request_headers: 'ngx_http_proxy_module',
  proxy_set_header: 'ngx_http_proxy_module',
  root: 'ngx_http_core_module',
  try_files: 'ngx_http_core_module',
} as const;

export type NginxDirective = keyof typeof MODULE_OF;

export const nginxDocUrl = (directive: NginxDirective): string =>
  `https://nginx.org/en/docs/http/${MODULE_OF[directive]}.html#${directive}`;

/** The words that close an advice: where nginx documents its directives. */
export const nginxDocs = (...directives: NginxDirective[]): string => `nginx's documentation: ${directives.map(nginxDocUrl).join(', ')}`;
