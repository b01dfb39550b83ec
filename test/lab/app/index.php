<?php

declare(strict_types=1);

// Front controller of the lab application: the two API endpoints, served from the reference server's data
// (app-data.json is written beside the document root from src/reference-server/data.ts when the lab starts).

const FAILED_TO_AUTHENTICATE = 'Failed to authenticate because of bad credentials or an invalid authorization header.';

function respond(int $status, array $body): void
{
    http_response_code($status);
    header('Content-Type: application/json');
    echo json_encode($body, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES);
}

function refuse(int $status, string $message): void
{
    respond($status, ['status' => 'error', 'message' => $message, 'data' => []]);
}

/**
 * The credentials where PHP applications look for them, in the lab's chosen order: PHP_AUTH_USER (PHP fills it when the
 * web server hands over the header), HTTP_AUTHORIZATION (set by the .htaccess rule), REDIRECT_HTTP_AUTHORIZATION (the same
 * after an internal redirect, as under the CGI handler). Not every application reads the last one.
 */
function basicCredentials(array $sources): ?array
{
    foreach ($sources as $source) {
        if ($source === 'PHP_AUTH_USER' && isset($_SERVER['PHP_AUTH_USER'])) {
            return [(string) $_SERVER['PHP_AUTH_USER'], (string) ($_SERVER['PHP_AUTH_PW'] ?? '')];
        }
        if ($source !== 'PHP_AUTH_USER' && isset($_SERVER[$source])) {
            return parseBasic((string) $_SERVER[$source]);
        }
    }
    return null;
}

function parseBasic(string $header): array
{
    if (preg_match('/^Basic\s+([A-Za-z0-9+\/]+={0,2})\s*$/i', $header, $match) !== 1) {
        return ['', ''];
    }
    $decoded = base64_decode($match[1], true);
    if ($decoded === false || !str_contains($decoded, ':')) {
        return ['', ''];
    }
    return explode(':', $decoded, 2);
}

function authenticated(array $app): bool
{
    $credentials = basicCredentials($app['authorizationSources']);
    if ($credentials === null || $credentials[0] === '') {
        refuse(401, FAILED_TO_AUTHENTICATE);
        return false;
    }
    if (!hash_equals($app['token'], $credentials[0])) {
        refuse(401, 'Invalid authentication credentials.');
        return false;
    }
    return true;
}

function translated(array $status, ?string $lang): array
{
    foreach ($status['translations'] as $translation) {
        if ($lang !== null && $translation['locale'] === $lang) {
            return array_merge($status, ['name' => $translation['name']]);
        }
    }
    return $status;
}

$app = json_decode((string) file_get_contents(dirname(__DIR__) . '/app-data.json'), true, 512, JSON_THROW_ON_ERROR);
$path = (string) parse_url((string) ($_SERVER['REQUEST_URI'] ?? '/'), PHP_URL_PATH);
$path = (string) preg_replace('#^/index\.php(?=/|$)#', '', $path);

if (preg_match('#^/api/ticket/status/([^/]+)$#', $path, $match) === 1) {
    if (!authenticated($app)) {
        return;
    }
    foreach ($app['statuses'] as $status) {
        if (ctype_digit($match[1]) && $status['id'] === (int) $match[1]) {
            $lang = isset($_GET['lang']) ? (string) $_GET['lang'] : null;
            respond(200, ['status' => 'success', 'message' => null, 'data' => translated($status, $lang)]);
            return;
        }
    }
    refuse(404, 'The ticket status with given ID was not found.');
} elseif ($path === '/api/selfservice/type') {
    if (!authenticated($app)) {
        return;
    }
    $types = $app['selfserviceTypes'];
    respond(200, ['status' => 'success', 'message' => null, 'data' => $types, 'count' => count($types), 'start' => 0, 'limit' => 50]);
} else {
    refuse(404, 'Route not found.');
}
