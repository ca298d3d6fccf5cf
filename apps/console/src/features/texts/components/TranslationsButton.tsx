import { useEffect, useState } from 'react';
import { Alert, Button, Drawer, Form, Input, Segmented, Space } from 'antd';
import { TranslationOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  LANGUAGES,
  TEXT_LANGUAGES,
  VISITOR_TEXT_MAX,
  VISITOR_TEXT_SCOPES,
  type VisitorTextScope,
} from '@kefu/protocol';
import { useSaving } from '../../../lib/saving';
import { notify } from '../../../lib/notify';
import { showFieldErrors } from '../../access/components/fieldErrors';
import { textsApi } from '../api';

const languageName = (l: string) => LANGUAGES.find((x) => x.language === l)?.name ?? l;

/**
 * "Other languages" for a setup section's visitor texts: a drawer with the section's texts in each
 * language besides the base one. A text left empty falls back to the base text (shown as placeholder).
 * `labels` names each key of the scope as the section's form does. A row scope names its row (`rowid`)
 * and shows as a link in the row's actions.
 */
export function TranslationsButton({
  scope,
  appid,
  rowid,
  labels,
}: {
  scope: VisitorTextScope;
  appid?: string;
  rowid?: string;
  labels: Record<string, string>;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [lang, setLang] = useState<string>(TEXT_LANGUAGES[0] ?? 'en');
  const [form] = Form.useForm<Record<string, string>>();
  const { saving, run } = useSaving();
  const key = ['visitorText', scope, appid ?? '', rowid ?? '', lang];
  const testId = rowid ? `${scope}-${rowid}` : scope;
  const data = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => textsApi.load({ scope, lang, appid, rowid }, signal),
    enabled: open,
  });
  useEffect(() => {
    if (data.data) form.setFieldsValue(data.data.texts);
  }, [data.data, form]);
  const keys = VISITOR_TEXT_SCOPES[scope].keys as readonly string[];
  const save = (texts: Record<string, string>) =>
    run(async () => {
      try {
        const r = await textsApi.save({ scope, lang, appid, rowid, texts });
        qc.setQueryData(key, r);
        notify.success(t('texts.saved', { language: languageName(lang) }));
      } catch (e) {
        showFieldErrors(form, e);
      }
    });
  return (
    <>
      <Button
        icon={<TranslationOutlined />}
        type={rowid ? 'link' : undefined}
        size={rowid ? 'small' : undefined}
        onClick={() => setOpen(true)}
        data-testid={`texts-open-${testId}`}
      >
        {t('texts.open')}
      </Button>
      <Drawer
        open={open}
        onClose={() => setOpen(false)}
        title={t('texts.title')}
        size="large"
        destroyOnHidden
        data-testid={`texts-drawer-${testId}`}
      >
        <Space direction="vertical" style={{ width: '100%' }} size="middle">
          <Alert
            type="info"
            showIcon
            message={t('texts.hint', { base: languageName(data.data?.base ?? 'zh') })}
          />
          {TEXT_LANGUAGES.length > 1 && (
            <Segmented
              value={lang}
              onChange={(v) => setLang(String(v))}
              options={TEXT_LANGUAGES.map((l) => ({ value: l, label: languageName(l) }))}
            />
          )}
          <Form form={form} layout="vertical" onFinish={(v) => void save(v)} disabled={data.isLoading}>
            {keys.map((k) => (
              <Form.Item key={k} name={k} label={`${labels[k] ?? k} (${languageName(lang)})`}>
                <Input.TextArea
                  data-testid={`texts-${k}`}
                  autoSize={{ minRows: 1, maxRows: 4 }}
                  maxLength={VISITOR_TEXT_MAX}
                  placeholder={data.data?.defaults[k]}
                />
              </Form.Item>
            ))}
            <Button type="primary" htmlType="submit" loading={saving} data-testid="texts-save">
              {t('common.save')}
            </Button>
          </Form>
        </Space>
      </Drawer>
    </>
  );
}
