import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { notify } from './notify';

/**
 * Destructive actions (spec section 5): a dialog titled "提示" with confirm and cancel, then the
 * call, then the server's message on success. Errors were already toasted by the request layer.
 */
/** The server's success message, unless it is the envelope's generic "ok" that says nothing. */
export const serverMsg = (msg: unknown): string | null =>
  typeof msg === 'string' && msg.trim() && msg.trim().toLowerCase() !== 'ok' ? msg.trim() : null;

export function useConfirmAction() {
  const { modal } = App.useApp();
  const { t } = useTranslation();
  return (content: string, action: () => Promise<string | unknown>, onDone?: () => void) =>
    modal.confirm({
      title: t('common.confirmTitle'),
      content,
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, 'data-testid': 'confirm-ok' },
      cancelButtonProps: { 'data-testid': 'confirm-cancel' },
      async onOk() {
        let msg: unknown;
        try {
          msg = await action();
        } catch {
          return;
        }
        notify.success(serverMsg(msg) ?? t('common.done'));
        onDone?.();
      },
    });
}
