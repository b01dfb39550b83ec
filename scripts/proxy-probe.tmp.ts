import { startDelayProxy } from './bench/delay-proxy.js';
const proxy = await startDelayProxy(new URL('http://127.0.0.1:18080'), Number(process.argv[2]));
console.log(proxy.url);
process.on('SIGTERM', () => void proxy.close().then(() => process.exit(0)));
