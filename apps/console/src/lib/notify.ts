import type { MessageInstance } from 'antd/es/message/interface';

/**
 * The request layer runs outside React, but toasts should use the themed App context. The shell
 * hands its message instance over here. Before that (login page), antd's static message API is
 * loaded on demand, so public pages do not carry it in their first download.
 */
let instance: MessageInstance | null = null;
export const setMessageInstance = (m: MessageInstance | null): void => {
  instance = m;
};

function show(kind: 'error' | 'success' | 'warning', text: string): void {
  if (instance) {
    void instance[kind](text);
    return;
  }
  void import('antd/es/message').then((m) => void m.default[kind](text));
}

export const notify = {
  error: (text: string) => show('error', text),
  success: (text: string) => show('success', text),
  warning: (text: string) => show('warning', text),
};
