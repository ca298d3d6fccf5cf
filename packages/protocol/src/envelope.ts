import type { ErrorKey } from './errors.js';

export interface OkEnvelope<T> {
  success: true;
  data: T;
  msg: string;
  code: number;
}
export interface ErrEnvelope {
  success: false;
  data?: unknown;
  msg: string;
  code: number;
  key?: ErrorKey;
  /** Field-level detail for validation errors: path → message */
  fields?: Record<string, string>;
}
export type Envelope<T> = OkEnvelope<T> | ErrEnvelope;

export interface Page<T> {
  list: T[];
  total: number;
  page: number;
  size: number;
}
