import { writeFileSync } from 'node:fs';

// Loaded with --import into the CLI under measurement: on exit, writes the process's peak RSS (kB, worker threads included).
const file = process.env.PEAK_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
