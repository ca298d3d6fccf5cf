import { useEffect } from 'react';
import type { FormInstance } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { accessApi, type SectionKey, type SectionTypes } from '../api';
import { showFieldErrors } from './fieldErrors';
import { notify } from '../../../lib/notify';
import { useConfirmAction } from '../../../lib/confirm';

/** Loads one settings section of an access point into a form; save and reset-to-defaults. */
export function useSection<K extends SectionKey>(key: K, appid: string, form: FormInstance<SectionTypes[K]>) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const confirm = useConfirmAction();
  const queryKey = ['access', 'section', key, appid];
  const q = useQuery({ queryKey, queryFn: ({ signal }) => accessApi.section(key, appid, signal) });

  useEffect(() => {
    if (q.data) form.setFieldsValue(q.data as never);
  }, [q.data, form]);

  const save = async (v: SectionTypes[K]) => {
    try {
      const saved = await accessApi.saveSection(key, appid, v);
      qc.setQueryData(queryKey, saved);
      form.setFieldsValue(saved as never);
      notify.success(t('common.done'));
    } catch (e) {
      showFieldErrors(form, e);
    }
  };

  const reset = (name: string) =>
    confirm(
      t('access.resetConfirm', { name }),
      () => accessApi.resetSection(key, appid),
      () => void qc.invalidateQueries({ queryKey }),
    );

  return { loading: q.isLoading, data: q.data, save, reset };
}
