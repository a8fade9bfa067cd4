import { expect, test, type WebSocketRoute } from '@playwright/test';
import { decode, encode } from '../src/protocol/codec';
import type { ServerMsg } from '../src/protocol/types';
import { shoot } from './helpers';
import { makeWorld, signIn } from './world';

test('after a deploy to another protocol version the app asks for a reload and stops reconnecting', async ({ page }) => {
  const world = await makeWorld({ photos: 0, milestones: false, comments: false });
  // Fake timers that still flow, so any reconnect the app schedules can be run at once below.
  await page.clock.install();
  const sockets: { page: WebSocketRoute; server: WebSocketRoute; closedByPage: boolean }[] = [];
  let newerServer = false;
  // The real server behind a stand-in for a deploy: once `newerServer`, its Hello
  // carries the next protocol version.
  await page.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    const socket = { page: ws, server, closedByPage: false };
    sockets.push(socket);
    server.onMessage((frame) => {
      const msg = decode<ServerMsg>(frame as Buffer);
      if (newerServer && msg.type === 'hello') msg.protocolVersion += 1;
      ws.send(Buffer.from(encode(msg)));
    });
    ws.onClose((code, reason) => {
      socket.closedByPage = true;
      void server.close({ code, reason });
    });
  });

  await signIn(page, world, 'homeowner');
  const card = page.getByTestId('project-card').filter({ hasText: world.projects[0].title });
  await expect(card).toBeVisible();
  expect(sockets).toHaveLength(1);

  // The deploy: the old instance asks sockets to reconnect (1012), the new one answers.
  newerServer = true;
  await sockets[0].server.close();
  await sockets[0].page.close({ code: 1012, reason: 'restarting' });
  const notice = page.getByTestId('update-required');
  await expect(notice).toBeVisible();
  await expect(notice).toHaveText(/Sitecast has been updated\. Please reload the page to continue\./);
  await expect(page.getByTestId('reconnecting')).toHaveCount(0);
  // The app closes the socket that spoke the other version…
  expect(sockets).toHaveLength(2);
  await expect.poll(() => sockets[1].closedByPage).toBe(true);
  // …and opens no other, however long it waits (backoff is at most 30 s a step).
  await page.clock.runFor(120_000);
  expect(sockets).toHaveLength(2);
  // What was on screen stays behind the notice.
  await expect(card).toBeVisible();
  await shoot(page, 'update-required');

  // The reload fetches the web app that speaks the server's version.
  newerServer = false;
  await notice.getByRole('button', { name: 'Reload' }).click();
  await expect(card).toBeVisible({ timeout: 10_000 });
  await expect(page.getByTestId('update-required')).toHaveCount(0);
  expect(sockets).toHaveLength(3);
});
