// The page's entry, one for both pages: the online page when the game server (stpete_server, doc/server.md)
// serves this folder (its responses say so: the header X-Stpete-Server), else the local page against the library's
// bots in this browser (the folder staged with the JavaScript package beside it, doc/javascript.md).
async function servedByGameServer() {
  try {
    const res = await fetch('index.html', { method: 'HEAD', cache: 'no-store' });
    return res.headers.has('x-stpete-server');
  } catch {
    return false;
  }
}

if (await servedByGameServer()) {
  document.body.dataset.mode = 'online';
  const { start } = await import('./online.js');
  await start();
} else {
  document.body.dataset.mode = 'local';
  await import('./local.js');
}
document.body.dataset.ready = '1';
