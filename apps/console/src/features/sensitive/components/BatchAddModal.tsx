import { useMemo, useState } from 'react';
import { Alert, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { SensitiveAction, SensitiveBatchResult, SensitiveKind } from '@kefu/protocol';
import { sensitiveApi } from '../api';
import { FormModal } from '../../../components/FormModal';
import { rules } from '../../../lib/formRules';
import { ActionField } from './ActionField';

interface Fields {
  words: string;
  action: SensitiveAction;
}

const short = (l: string[]) => (l.length > 20 ? `${l.slice(0, 20).join('、')}…` : l.join('、'));

/** One word per line; after saving, what was added and what was skipped (the dialog stays open). */
export function BatchAddModal(props: {
  kind: SensitiveKind;
  open: boolean;
  onClose: () => void;
  onAdded: () => void;
}) {
  const { t, i18n } = useTranslation();
  const r = rules(i18n.language);
  const [result, setResult] = useState<SensitiveBatchResult | null>(null);
  // Stable: FormModal refills the form whenever its initial values change.
  const initial = useMemo<Partial<Fields>>(() => ({ action: 'mask' }), []);
  const close = () => {
    setResult(null);
    props.onClose();
  };
  const id = `sw-${props.kind}-bulk`;
  return (
    <FormModal<Fields>
      open={props.open}
      title={t('sw.batchTitle')}
      testId={id}
      width={560}
      initialValues={initial}
      onCancel={close}
      onSubmit={async (v) => {
        const res = await sensitiveApi.batadd(props.kind, v);
        setResult(res);
        props.onAdded();
        if (res.duplicates.length === 0 && res.invalid.length === 0) close();
      }}
    >
      <Typography.Paragraph type="secondary">{t('sw.batchHint')}</Typography.Paragraph>
      <Form.Item name="words" label={t('sw.word')} rules={[r.required]}>
        <Input.TextArea rows={8} data-testid={`${id}-words`} />
      </Form.Item>
      <ActionField testId={`${id}-action`} />
      {result && (
        <Alert
          type={result.duplicates.length || result.invalid.length ? 'warning' : 'success'}
          data-testid={`${id}-result`}
          message={t('sw.batchResult', {
            added: result.added,
            dup: result.duplicates.length,
            bad: result.invalid.length,
          })}
          description={
            <>
              {result.duplicates.length > 0 && (
                <div>
                  {t('sw.batchDuplicates')}: {short(result.duplicates)}
                </div>
              )}
              {result.invalid.length > 0 && (
                <div>
                  {t('sw.batchInvalid')}:{' '}
                  {short(result.invalid.map((x) => `${x.word}（${t(`error.${x.key}`)}）`))}
                </div>
              )}
            </>
          }
        />
      )}
    </FormModal>
  );
}
