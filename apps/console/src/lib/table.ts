import type { TablePaginationConfig } from 'antd';
import { PAGE_SIZE_DEFAULT, PAGE_SIZES } from '@kefu/protocol';

export interface PageState {
  p: number;
  ps: number;
}
export const firstPage: PageState = { p: 1, ps: PAGE_SIZE_DEFAULT };

/** The spec's pager: default 20, sizes 10…100, total shown, size changer on. */
export function pager(
  state: PageState,
  total: number,
  onChange: (s: PageState) => void,
  totalText: (total: number) => string,
): TablePaginationConfig {
  return {
    current: state.p,
    pageSize: state.ps,
    total,
    showSizeChanger: true,
    pageSizeOptions: PAGE_SIZES.map(String),
    showTotal: totalText,
    onChange: (p, ps) => onChange({ p: ps !== state.ps ? 1 : p, ps }),
  };
}
