import { Table, type TableProps } from 'antd';

/**
 * A live list held in the browser (the monitor's chats): the antd Table virtualised, so thousands of rows
 * render only what is on screen; no pager (the list is the live set, not a page of a query). Columns need
 * widths for the virtual layout.
 */
export function LiveTable<T extends object>(
  props: {
    rows: readonly T[];
    rowKey: keyof T & string;
    height: number;
    testId?: string;
    emptyText?: string;
  } & Omit<TableProps<T>, 'dataSource' | 'pagination' | 'rowKey' | 'virtual' | 'scroll'>,
) {
  const { rows, rowKey, height, testId, emptyText, ...rest } = props;
  const width = (rest.columns ?? []).reduce((n, c) => n + (typeof c.width === 'number' ? c.width : 120), 0);
  return (
    <Table<T>
      {...rest}
      data-testid={testId}
      rowKey={rowKey}
      size={rest.size ?? 'small'}
      dataSource={rows as T[]}
      pagination={false}
      virtual
      scroll={{ y: height, x: width }}
      locale={emptyText ? { emptyText } : rest.locale}
    />
  );
}
