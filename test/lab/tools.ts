import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Where Debian's packages put what the lab runs (apache2, php-fpm, php-cgi, libapache2-mod-fcgid, nginx). */
export interface LabTools {
  apache2: string;
  apacheModules: string;
  phpFpm: string;
  cgiBinDir: string;
  phpCgiName: string;
  nginx?: string;
}

const CGI_BIN = '/usr/lib/cgi-bin';

function versioned(dir: string, pattern: RegExp): string | undefined {
  const names = existsSync(dir) ? readdirSync(dir).filter((name) => pattern.test(name)) : [];
  return names.sort().at(-1);
}

/** The tools found, or what is missing, in words for the skip message. */
export function findLabTools(): { tools?: LabTools; missing: string[] } {
  const phpFpm = versioned('/usr/sbin', /^php-fpm\d+\.\d+$/);
  const phpCgiName = versioned(CGI_BIN, /^php\d+\.\d+$/);
  const missing = [
    existsSync('/usr/sbin/apache2') ? '' : 'apache2',
    phpFpm ? '' : 'php-fpm',
    phpCgiName ? '' : 'php-cgi',
    existsSync('/usr/lib/apache2/modules/mod_fcgid.so') ? '' : 'libapache2-mod-fcgid',
  ].filter(Boolean);
  if (missing.length > 0 || !phpFpm || !phpCgiName) return { missing };
  return {
    missing,
    tools: {
      apache2: '/usr/sbin/apache2',
      apacheModules: '/usr/lib/apache2/modules',
      phpFpm: join('/usr/sbin', phpFpm),
      cgiBinDir: CGI_BIN,
      phpCgiName,
      ...(existsSync('/usr/sbin/nginx') ? { nginx: '/usr/sbin/nginx' } : {}),
    },
  };
}
