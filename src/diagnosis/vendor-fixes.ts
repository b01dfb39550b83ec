import type { VendorName } from '../classify/signatures.js';
import type { Classified, FrontOrigin } from '../classify/types.js';

/**
 * What a named front's own answer says happened to the request, from the answer the classification gave to it: it
 * could not get an answer from what stands behind it, it has no route for the path, it sent the request to its
 * sign-in page, or it refused or blocked it.
 */
export type FrontFailure = 'unreachable' | 'no-route' | 'sign-in' | 'refused';

/** The words gateways answer with when no route of theirs matches, whatever HTTP code they send it with (AWS API Gateway's 403). */
const NO_ROUTE = /no Route matched with those values|Missing Authentication Token/;

export function frontFailure({ origin, meaning }: Classified & { origin: FrontOrigin }, status: number, body: string): FrontFailure {
  if (meaning.kind === 'redirect' || origin.front === 'sso') return 'sign-in';
  if (status >= 500) return 'unreachable';
  if (status === 404 || NO_ROUTE.test(body)) return 'no-route';
  return 'refused';
}

/** A named front's fix for each way it can stand in the way, and where its documentation says more. */
interface VendorFix {
  docs: string;
  fixes: Partial<Record<FrontFailure | 'maintenance', string>>;
}

/**
 * The fronts users meet most, each with its own fix. The API document leaves everything but Apache to each server's
 * own documentation (Authentication 6), so each fix ends with where that documentation is.
 */
const VENDOR_FIXES: Partial<Record<VendorName, VendorFix>> = {
  HAProxy: {
    docs: 'https://docs.haproxy.org/2.8/configuration.html#5.2-check',
    fixes: {
      unreachable:
        'HAProxy holds every server of the backend for down (its log shows <NOSRV> or a server marked DOWN on the stats page): check that the web server listens on the address and port of the backend\'s "server" lines, and that the health check (option httpchk) asks for a path the web server answers with 2xx; then reload HAProxy.',
      refused:
        'An "http-request deny" rule of HAProxy matched these requests ("Request forbidden by administrative rules"): find the ACL in haproxy.cfg that denies them (a path, a header, a source address) and keep it off the API paths (/api/...).',
    },
  },
  Traefik: {
    docs: 'https://doc.traefik.io/traefik/routing/routers/',
    fixes: {
      'no-route':
        'No Traefik router matches these requests ("404 page not found" is what Traefik answers then): check the router\'s rule (Host(`...`) and PathPrefix(`/api`)) against the host and path of --base-url, and its entryPoints (web for http, websecure for https).',
      unreachable:
        "The Traefik service of this router has no server that answers (Bad Gateway: the server refused or broke the connection; Service Unavailable: no healthy server; Gateway Timeout: no answer in time): check the URL and port of the service's loadBalancer servers, and that the web server behind it runs.",
      refused:
        'A middleware of the Traefik router refused these requests (IPAllowList, BasicAuth, ForwardAuth): keep it off the API paths (/api/...); a BasicAuth middleware reads the same Authorization header the API token travels in.',
    },
  },
  Envoy: {
    docs: 'https://www.envoyproxy.io/docs/envoy/latest/configuration/http/http_conn_man/response_code_details',
    fixes: {
      unreachable:
        'Envoy found no healthy host in the cluster of this route ("no healthy upstream"), or could not connect to it ("upstream connect error"): check the cluster\'s endpoints (the address and port of the web server) and its health check, and under Istio that the service\'s pods are ready; the response flags of the access log (UH, UF, UT) say which.',
      'no-route':
        "No route of Envoy's route configuration matches these requests (an empty 404 of Envoy's own, response flag NR): add a route for the API's host and the /api/ prefix to the virtual host.",
      refused:
        "An Envoy filter refused these requests (RBAC, JWT authentication, external authorization): exempt the API paths, whose clients authenticate with the API's own token in the Authorization header.",
    },
  },
  Varnish: {
    docs: 'https://varnish-cache.org/docs/trunk/users-guide/troubleshooting.html',
    fixes: {
      unreachable:
        'Varnish could not fetch the answer from its backend ("Backend fetch failed" on its Guru Meditation page; the Retry-After it sends is its own, not a maintenance window): check .host and .port of the backend in the VCL, that the web server listens there, the backend\'s probe and .first_byte_timeout; varnishlog -g request -q "RespStatus == 503" names the failure.',
      refused:
        "Varnish's VCL answered these requests itself (a return (synth(...)) in vcl_recv): keep that rule off the API paths (/api/...).",
    },
  },
  "Heroku's router": {
    docs: 'https://devcenter.heroku.com/articles/error-codes',
    fixes: {
      unreachable:
        'Heroku\'s router got no answer from the app (its "Application error" page): run heroku logs --tail and read the router\'s H-code for these requests (H10 the app crashed, H12 a request timed out, H13 the connection closed without an answer, H14 no web dyno runs), then fix what it names (heroku ps:scale web=1 for H14).',
      'no-route':
        'Heroku has no app at this address ("There\'s nothing here, yet."): check --base-url against the app\'s domains (heroku domains).',
      maintenance: 'The app is in Heroku\'s maintenance mode: "heroku maintenance:off" once the work is done, then run the suite again.',
    },
  },
  'Google Front End': {
    docs: 'https://cloud.google.com/load-balancing/docs/https/troubleshooting-ext-https-lbs',
    fixes: {
      unreachable:
        "Google's load balancer found no healthy backend, or the backend closed the connection or did not answer in time (its log says which: failed_to_pick_backend, backend_timeout): gcloud compute backend-services get-health shows the unhealthy backends; check the health check's path and port, and that the firewall lets Google's health checks in (35.191.0.0/16, 130.211.0.0/22).",
      'no-route':
        'Google\'s front end has no route for this host or path (its own "Error 404 (Not Found)!!1" page): check the host and path rules of the load balancer\'s URL map, or the Cloud Run or App Engine service it should reach.',
      refused:
        'Google\'s front end refused these requests (a Cloud Armor rule, or IAM in front of Cloud Run: "Your client does not have permission"): let the API paths through without Google credentials (allUsers as Cloud Run invoker, or a Cloud Armor rule for /api/...).',
    },
  },
  'Citrix NetScaler': {
    docs: 'https://docs.netscaler.com/en-us/citrix-adc/current-release/aaa-tm.html',
    fixes: {
      'sign-in':
        'The NetScaler\'s authentication (AAA, nFactor) sends these requests to its sign-in page (/logon/LogonPoint/): take the API paths out of it, with an authentication policy for HTTP.REQ.URL.PATH.STARTSWITH("/api/") bound to a no-authentication action, or a load balancing virtual server for /api/ without an authentication virtual server, so that the API itself reads the token.',
    },
  },
  Kong: {
    docs: 'https://docs.konghq.com/gateway/latest/key-concepts/routes/',
    fixes: {
      'no-route':
        'No Kong route matches these requests ({"message":"no Route matched with those values"}): add a route for the API\'s host and the /api/ path to the service in front of the API, GET among its methods.',
      refused:
        "A Kong plugin on the route refused these requests (key-auth, basic-auth, acl, ip-restriction): take it off the API's route, which authenticates its clients itself; a basic-auth plugin reads the same Authorization header the API token travels in.",
      unreachable:
        'Kong could not reach the route\'s upstream ("An invalid response was received from the upstream server", "failure to get a peer from the ring-balancer"): check the service\'s host and port, and the upstream\'s targets and health checks.',
    },
  },
  'AWS API Gateway': {
    docs: 'https://docs.aws.amazon.com/apigateway/latest/developerguide/supported-gateway-response-types.html',
    fixes: {
      'no-route':
        'API Gateway has no resource with a GET method for this path ("Missing Authentication Token" is its answer to a path it does not know): add the resource (or a {proxy+} resource) with GET, deploy the API to the stage, and include the stage in --base-url (https://<id>.execute-api.<region>.amazonaws.com/<stage>).',
      refused:
        'API Gateway\'s authorizer, API key or resource policy refused these requests ({"message":"Forbidden"} or "Unauthorized", with x-amzn-ErrorType): set the method\'s authorization to NONE without a required API key and pass the Authorization header on to the integration, or make the authorizer accept the API\'s Basic token; then deploy the stage again.',
      unreachable:
        'API Gateway\'s integration failed ("Internal server error", "Endpoint request timed out"): read the stage\'s execution log for the request (x-amzn-RequestId names it) and the backend\'s own log.',
    },
  },
  'F5 BIG-IP': {
    docs: 'https://techdocs.f5.com/',
    fixes: {
      refused:
        'The BIG-IP\'s security policy (ASM / Advanced WAF) rejected these requests ("The requested URL was rejected", with a support ID): look the support ID up in Security > Event Logs > Application > Requests, which names the violation (an attack signature, a header, a method, a URL), and make it a learning suggestion to accept or an exception for the API paths (/api/...).',
    },
  },
  Akamai: {
    docs: 'https://techdocs.akamai.com/edge-diagnostics/docs',
    fixes: {
      refused:
        'Akamai denied these requests ("Access Denied" with a Reference #): translate the Reference # with Edge Diagnostics (Translate error string) in Control Center, which names the rule that denied them (App & API Protector, a WAF rule, a property rule), and exempt the API paths (/api/...).',
      unreachable:
        "Akamai's edge could not get an answer from the origin: translate the Reference # of its error page with Edge Diagnostics, and check the property's origin hostname, port and certificate.",
    },
  },
};

/** The named front's own fix for what it did, with where its documentation is, or undefined for a front without one. */
export function vendorFix(origin: FrontOrigin, failure: FrontFailure | 'maintenance'): string[] | undefined {
  // Stryker disable next-line ConditionalExpression: no front is named "undefined"
  const known = origin.vendor === undefined ? undefined : VENDOR_FIXES[origin.vendor as VendorName];
  const fix = known?.fixes[failure];
  return known && fix ? [fix, `${origin.vendor}'s documentation: ${known.docs}`] : undefined;
}
