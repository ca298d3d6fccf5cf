import { StrictMode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { REPLAY_PAGE_SIZE, type AgentUserDto, type MessageDto } from '@kefu/protocol';
import { useSession } from '../../app/session';
import type { AgentInfo } from '../auth/api';
import { stopAllTimers } from '../../lib/timers';
import { AgentRuntimeHost, DialogueMenuBadge } from './components/AgentRuntimeHost';
import { runningAgentRuntime } from './runtime';
import { useDialogue } from './store';

type Handler = (...args: unknown[]) => void;

/** The part of a socket.io client socket that the agent runtime uses (as in lib/socket.test.ts). */
const fake = vi.hoisted(() => {
  class FakeSocket {
    connected = false;
    active = true;
    disconnects = 0;
    handlers = new Map<string, Handler[]>();
    io = {
      opts: { query: {} as Record<string, string> },
      on: () => undefined,
    };
    constructor(
      readonly uri: string,
      readonly opts: Record<string, unknown>,
    ) {}
    on(event: string, h: Handler) {
      this.handlers.set(event, [...(this.handlers.get(event) ?? []), h]);
      return this;
    }
    onAny() {
      return this;
    }
    emit() {
      return this;
    }
    connect() {
      return this;
    }
    removeAllListeners() {
      this.handlers.clear();
      return this;
    }
    disconnect() {
      this.disconnects++;
      this.connected = false;
      return this;
    }
    fire(event: string, ...args: unknown[]) {
      for (const h of this.handlers.get(event) ?? []) h(...args);
    }
  }
  const sockets: FakeSocket[] = [];
  return { FakeSocket, sockets };
});

vi.mock('socket.io-client', () => ({
  io: vi.fn((uri: string, opts: Record<string, unknown>) => {
    const s = new fake.FakeSocket(uri, opts);
    fake.sockets.push(s);
    return s;
  }),
}));

vi.mock('./api', async (importOriginal) => {
  const real = await importOriginal<typeof import('./api')>();
  return {
    ...real,
    agentApi: {
      ...real.agentApi,
      ping: vi.fn(() => Promise.resolve({ time: 1 })),
      status: vi.fn(() => Promise.resolve({ status: 'ready' })),
    },
    talkApi: {
      ...real.talkApi,
      agentUsers: vi.fn(() => Promise.resolve({ agentUserList: [] })),
      read: vi.fn(() => Promise.resolve(null)),
    },
  };
});

vi.mock('../auth/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../auth/api')>()),
  revokeToken: vi.fn(() => Promise.resolve(null)),
}));

vi.mock('./notifications', () => ({
  playSound: vi.fn(),
  desktopNotify: vi.fn(),
  flashTitle: vi.fn(),
  askNotificationPermission: vi.fn(),
}));

const info = (id: string, usertype = '0'): AgentInfo => ({
  user: { id, orgi: 'kefu', username: id, usertype, on_state: 'ready' },
  organ: null,
  auth: {},
});

const logIn = (i: AgentInfo) => act(() => useSession.setState({ status: 'ready', info: i }));

/** A shell-like layout: the runtime host beside the routed page, as Shell renders it. */
function renderShell(strict = false) {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: (
          <>
            <AgentRuntimeHost />
            <DialogueMenuBadge />
            <Outlet />
          </>
        ),
        children: [
          { path: 'dialogue', element: <div data-testid="page-dialogue" /> },
          { path: 'tourist', element: <div data-testid="page-tourist" /> },
          { path: 'setup/role', element: <div data-testid="page-setup" /> },
        ],
      },
    ],
    { initialEntries: ['/dialogue'] },
  );
  const tree = <RouterProvider router={router} />;
  render(strict ? <StrictMode>{tree}</StrictMode> : tree);
  return router;
}

const entry = (id: string): AgentUserDto =>
  ({
    id,
    userid: `v-${id}`,
    username: `访客${id}`,
    agentserviceid: `s-${id}`,
    status: 'inservice',
  }) as AgentUserDto;

/** Lets the deferred release (setTimeout 0) and pending promises run. */
const settle = () => act(() => new Promise((r) => setTimeout(r, 5)));

beforeEach(() => {
  fake.sockets.length = 0;
  useSession.setState({ status: 'anon', info: null, routes: [] });
});

afterEach(() => {
  cleanup();
  stopAllTimers();
});

describe('agent runtime lifetime (held by the shell)', () => {
  it('starts once per login and survives route changes', async () => {
    logIn(info('u1'));
    const router = renderShell();
    await settle();
    expect(fake.sockets).toHaveLength(1);
    expect(runningAgentRuntime()).toBe('u1');
    expect(fake.sockets[0].uri).toBe('/im/agent');

    for (const path of ['/tourist', '/setup/role', '/dialogue', '/tourist']) {
      await act(() => router.navigate(path));
      await settle();
    }
    expect(screen.getByTestId('page-tourist')).toBeTruthy();
    expect(fake.sockets).toHaveLength(1);
    expect(fake.sockets[0].disconnects).toBe(0);
    expect(runningAgentRuntime()).toBe('u1');

    // A refreshed session object for the same user does not reconnect either.
    logIn(info('u1'));
    await settle();
    expect(fake.sockets).toHaveLength(1);
    expect(fake.sockets[0].disconnects).toBe(0);
  });

  it('keeps one socket under StrictMode (mount, unmount, mount)', async () => {
    logIn(info('u1'));
    renderShell(true);
    await settle();
    expect(fake.sockets).toHaveLength(1);
    expect(fake.sockets[0].disconnects).toBe(0);
    expect(runningAgentRuntime()).toBe('u1');
  });

  it('survives the shell being remounted (router rebuilt)', async () => {
    logIn(info('u1'));
    renderShell();
    await settle();
    cleanup();
    renderShell();
    await settle();
    expect(fake.sockets).toHaveLength(1);
    expect(fake.sockets[0].disconnects).toBe(0);
    expect(runningAgentRuntime()).toBe('u1');
  });

  it('stops on logout, empties the store, and starts again on the next login', async () => {
    logIn(info('u1'));
    renderShell();
    await settle();
    act(() => fake.sockets[0].fire('new', entry('c1')));
    expect(useDialogue.getState().chats.list).toHaveLength(1);

    await act(() => useSession.getState().logout());
    await settle();
    expect(fake.sockets[0].disconnects).toBe(1);
    expect(runningAgentRuntime()).toBeNull();
    expect(useDialogue.getState().chats.list).toHaveLength(0);
    expect(useDialogue.getState().socket).toBeNull();

    logIn(info('u1'));
    await settle();
    expect(fake.sockets).toHaveLength(2);
    expect(runningAgentRuntime()).toBe('u1');
  });

  it('stops when the session expires (stopAllTimers)', async () => {
    logIn(info('u1'));
    renderShell();
    await settle();
    act(() => useSession.getState().expire());
    await settle();
    expect(fake.sockets[0].disconnects).toBe(1);
    expect(runningAgentRuntime()).toBeNull();
  });

  it('is not started for a user without A01', async () => {
    logIn(info('u2', '1'));
    renderShell();
    await settle();
    expect(fake.sockets).toHaveLength(0);
    expect(runningAgentRuntime()).toBeNull();
  });

  it('counts new chats off the workspace for the menu badge, cleared when the workspace opens', async () => {
    logIn(info('u1'));
    const router = renderShell();
    await settle();
    await act(() => router.navigate('/tourist'));
    expect(screen.queryByTestId('menu-dialogue-badge')).toBeNull();

    act(() => fake.sockets[0].fire('new', entry('c1')));
    act(() => fake.sockets[0].fire('new', entry('c2')));
    expect(useDialogue.getState().newChats).toBe(2);
    expect(screen.getByTestId('menu-dialogue-badge').textContent).toContain('2');

    // The workspace (a view over the same store) clears the new-chat count when shown.
    act(() => useDialogue.getState().setViewing(true));
    expect(useDialogue.getState().newChats).toBe(0);
    act(() => fake.sockets[0].fire('new', entry('c3')));
    expect(useDialogue.getState().newChats).toBe(0);
    expect(useDialogue.getState().chats.list).toHaveLength(3);
    act(() => useDialogue.getState().setViewing(false));
  });

  it("answers the server's resync with a replay from each held chat's resume position", async () => {
    logIn(info('u1'));
    renderShell();
    await settle();
    const sock = fake.sockets[0];
    sock.connected = true;
    const emit = vi.spyOn(sock, 'emit');
    const held = [1, 2, 5].map((seq) => ({ id: `m${seq}`, agentserviceid: 's-c1', seq }) as MessageDto);
    act(() => useDialogue.setState({ messages: { 's-c1': held } }));
    act(() => sock.fire('resync', { reason: 'delivery_restored' }));
    await settle();
    expect(emit).toHaveBeenCalledWith(
      'replay',
      { agentserviceid: 's-c1', after: 2, ps: REPLAY_PAGE_SIZE },
      expect.any(Function),
    );
  });
});
