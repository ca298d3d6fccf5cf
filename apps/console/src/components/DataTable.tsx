import { Table, type TableProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { pager } from '../lib/table';
import type { ListState } from './useList';

/**
 * The list's antd Table: the spec pager (20 by default; 10, 15, 20, 30, 40, 50, 100; total shown), the
 * loading state, and — with `selectable` — row selection kept in the list state for batch actions.
 */
export function DataTable<T extends object, F extends object>(
  props: {
    list: ListState<F, T>;
    rowKey: keyof T & string;
    selectable?: boolean;
    testId?: string;
    emptyText?: string;
    /** The pager's total line (default: "N in total"), e.g. "N+" when the list's count stopped at a bound. */
    totalText?: (total: number) => string;
  } & Omit<TableProps<T>, 'dataSource' | 'pagination' | 'rowKey' | 'rowSelection' | 'loading'>,
) {
  const { t } = useTranslation();
  const { list, rowKey, selectable, testId, emptyText, totalText, ...rest } = props;
  const data = list.query.data;
  return (
    <Table<T>
      {...rest}
      data-testid={testId}
      rowKey={rowKey}
      size={rest.size ?? 'middle'}
      dataSource={data?.list ?? []}
      loading={list.query.isFetching}
      locale={emptyText ? { emptyText } : rest.locale}
      pagination={pager(
        list.page,
        data?.total ?? 0,
        list.setPage,
        totalText ?? ((n) => t('common.total', { total: n })),
      )}
      rowSelection={
        selectable
          ? {
              selectedRowKeys: list.selected,
              preserveSelectedRowKeys: true,
              onChange: (keys) => list.setSelected(keys.map(String)),
            }
          : undefined
      }
    />
  );
}
