import { apiUrl, type Query } from './request';
import { getToken } from './storage';
import { notify } from './notify';
import { i18n } from './i18n';

/** The file name of a Content-Disposition header (the UTF-8 form first). */
export function dispositionName(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1]);
    } catch {
      // fall through to the plain form
    }
  }
  return /filename="([^"]+)"/i.exec(header)?.[1] ?? fallback;
}

/**
 * Downloads a file from the API and saves it: fetched with the authorization header (a token never goes
 * in a URL), then handed to the browser as a blob. An error envelope is shown like any failed call.
 */
export async function downloadFile(path: string, params: Query, fallbackName: string): Promise<void> {
  const res = await window.fetch(apiUrl(path, params), { headers: { authorization: getToken() } });
  if (!res.ok || (res.headers.get('content-type') ?? '').includes('application/json')) {
    let text = i18n.t('export.downloadFailed');
    try {
      const body = (await res.json()) as { key?: string; msg?: string };
      text = (body.key && i18n.exists(`error.${body.key}`) ? i18n.t(`error.${body.key}`) : body.msg) || text;
    } catch {
      // not JSON
    }
    notify.error(text);
    return;
  }
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = dispositionName(res.headers.get('content-disposition'), fallbackName);
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
