import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp, Button } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ExportJobDto, Page } from '@kefu/protocol';
import { ExportButton } from './ExportButton';
import { DataTable } from './DataTable';
import { useList } from './useList';
import { progressOf } from './exportApi';
import { dispositionName } from '../lib/download';

vi.mock('react-i18next', () => ({
  useTranslation: () => ({
    t: (k: string, o?: Record<string, unknown>) => (o ? `${k}:${JSON.stringify(o)}` : k),
    i18n: { exists: () => false },
  }),
}));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const wrap = (ui: React.ReactNode) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AntApp>{ui}</AntApp>
    </QueryClientProvider>,
  );

const job = (over: Partial<ExportJobDto>): ExportJobDto => ({
  id: 'j1',
  kind: 'history',
  filename: '历史对话-20261123-101010.xlsx',
  status: 'queued',
  rows: 0,
  total: 10,
  size: null,
  error: null,
  createtime: 0,
  finishtime: null,
  ...over,
});

const ok = (data: unknown) => new Response(JSON.stringify({ success: true, data, msg: 'ok', code: 200 }));

describe('ExportButton', () => {
  it('starts the job, follows its progress and offers the download when done', async () => {
    const states = [job({ status: 'running', rows: 4 }), job({ status: 'done', rows: 10, size: 2048 })];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        String(url).startsWith('/api/export/job') ? ok(states.shift() ?? states[0]) : ok(null),
      ),
    );
    const start = vi.fn(async () => job({}));
    wrap(<ExportButton start={start} testId="x" />);
    fireEvent.click(screen.getByTestId('x'));
    await waitFor(() => expect(screen.getByTestId('export-status-j1')).toBeTruthy());
    expect(start).toHaveBeenCalledTimes(1);
    expect((screen.getByTestId('x-download') as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(screen.getByTestId('export-status-j1').dataset.status).toBe('done'), {
      timeout: 4000,
    });
    expect((screen.getByTestId('x-download') as HTMLButtonElement).disabled).toBe(false);
  });

  it('progress: percent of the known total, none when unknown, 100 when done', () => {
    expect(progressOf({ rows: 5, total: 10, status: 'running' })).toBe(50);
    expect(progressOf({ rows: 5, total: null, status: 'running' })).toBeNull();
    expect(progressOf({ rows: 10, total: 10, status: 'running' })).toBe(99);
    expect(progressOf({ rows: 0, total: 0, status: 'done' })).toBe(100);
  });

  it('takes the UTF-8 file name of the download', () => {
    const h = `attachment; filename="____.xlsx"; filename*=UTF-8''${encodeURIComponent('历史对话.xlsx')}`;
    expect(dispositionName(h, 'x')).toBe('历史对话.xlsx');
    expect(dispositionName('attachment; filename="a.xlsx"', 'x')).toBe('a.xlsx');
    expect(dispositionName(null, 'x')).toBe('x');
  });
});

type Row = { id: string; name: string };
function List(props: { fetch: (q: { q?: string; p: number; ps: number }) => Promise<Page<Row>> }) {
  const list = useList<{ q?: string }, Row>('rows', (q) => props.fetch(q), {});
  return (
    <>
      <Button data-testid="search" onClick={() => list.search({ q: 'x' })}>
        s
      </Button>
      <span data-testid="selected">{list.selected.join(',')}</span>
      <DataTable<Row, { q?: string }>
        list={list}
        rowKey="id"
        selectable
        columns={[{ title: 'n', dataIndex: 'name' }]}
      />
    </>
  );
}

describe('list recipe', () => {
  it('pages with the spec pager, keeps the selection, and a new search goes back to page 1', async () => {
    const fetch = vi.fn(async (q: { p: number; ps: number }) => ({
      list: Array.from({ length: 3 }, (_, i) => ({ id: `r${(q.p - 1) * q.ps + i}`, name: `row ${i}` })),
      total: 45,
      page: q.p,
      size: q.ps,
    }));
    wrap(<List fetch={fetch} />);
    // Three rows a page keep antd fast in jsdom; the pager works from `total`.
    await waitFor(() => expect(screen.getAllByRole('row').length).toBe(4));
    expect(fetch).toHaveBeenLastCalledWith({ p: 1, ps: 20 });
    expect(screen.getByText('common.total:{"total":45}')).toBeTruthy();
    const boxes = screen.getAllByRole('checkbox');
    fireEvent.click(boxes[1]);
    expect(screen.getByTestId('selected').textContent).toBe('r0');
    await act(async () => fireEvent.click(screen.getByTitle('2')));
    await waitFor(() => expect(fetch).toHaveBeenLastCalledWith({ p: 2, ps: 20 }));
    expect(screen.getByTestId('selected').textContent).toBe('r0');
    await act(async () => fireEvent.click(screen.getByTestId('search')));
    await waitFor(() => expect(fetch).toHaveBeenLastCalledWith({ q: 'x', p: 1, ps: 20 }));
    expect(screen.getByTestId('selected').textContent).toBe('');
  }, 60_000);
});
