import { useState } from 'react';
import { Button, Form, Select, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CONTACTS_CODE, type ContactDto } from '@kefu/protocol';
import { contactsApi } from '../api';
import { ContactFormItems, toFields, toFormValues, type ContactFormValues } from './ContactFormItems';
import { TagChips } from '../../tags/components/TagChips';
import { useCan } from '../../access/components/useCan';
import { showFieldErrors } from '../../access/components/fieldErrors';
import { useSaving } from '../../../lib/saving';
import { notify } from '../../../lib/notify';

type Mode = 'view' | 'edit' | 'link';

/** Search the caller's contacts to link the visitor to one (holders of A05: the list is theirs to read). */
function LinkContact(props: { onLink: (id: string) => Promise<void>; onCancel: () => void }) {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const [picked, setPicked] = useState<string>();
  const { saving, run } = useSaving();
  const found = useQuery({
    queryKey: ['contacts', 'link', q],
    queryFn: ({ signal }) => contactsApi.page({ q: q || undefined, p: 1, ps: 10 }, signal),
  });
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Select
        showSearch
        filterOption={false}
        onSearch={setQ}
        value={picked}
        onChange={setPicked}
        placeholder={t('record.linkPlaceholder')}
        style={{ width: '100%' }}
        data-testid="record-link-search"
        options={(found.data?.list ?? []).map((c) => ({
          value: c.id,
          label: [c.name, c.phone || c.email].filter(Boolean).join(' · '),
        }))}
      />
      <Space>
        <Button
          type="primary"
          size="small"
          disabled={!picked}
          loading={saving}
          data-testid="record-link-ok"
          onClick={() => picked && void run(() => props.onLink(picked))}
        >
          {t('record.link')}
        </Button>
        <Button size="small" onClick={props.onCancel}>
          {t('common.cancel')}
        </Button>
      </Space>
    </Space>
  );
}

/**
 * The chat panel's contact: the visitor's contact with its main fields, edited inline; or, when there is
 * none, create one from the visitor (PUT /api/contacts) or link an existing one.
 */
export function ContactCard(props: {
  agentserviceid: string;
  contact: ContactDto | null;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const can = useCan();
  const [mode, setMode] = useState<Mode>('view');
  const [form] = Form.useForm<ContactFormValues>();
  const { saving, run } = useSaving();
  const c = props.contact;
  const put = async (b: Parameters<typeof contactsApi.fromChat>[1]) => {
    await contactsApi.fromChat(props.agentserviceid, b);
    notify.success(t('record.saved'));
    setMode('view');
    props.onChanged();
  };

  if (mode === 'link')
    return <LinkContact onLink={(contactid) => put({ contactid })} onCancel={() => setMode('view')} />;
  if (mode === 'edit')
    return (
      <Form<ContactFormValues>
        form={form}
        layout="vertical"
        size="small"
        initialValues={c ? toFormValues(c) : undefined}
        scrollToFirstError
        data-testid="record-contact-form"
        onFinish={(v) =>
          void run(async () => {
            try {
              await put(
                toFields({ name: v.name, phone: v.phone, email: v.email, company: v.company, memo: v.memo }),
              );
            } catch (e) {
              showFieldErrors(form, e);
              throw e;
            }
          })
        }
      >
        <ContactFormItems brief testId="record-contact" />
        <Space>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="record-contact-save">
            {t('common.save')}
          </Button>
          <Button onClick={() => setMode('view')}>{t('common.cancel')}</Button>
        </Space>
      </Form>
    );
  if (!c)
    return (
      <Space direction="vertical" style={{ width: '100%' }} data-testid="record-no-contact">
        <Typography.Text type="secondary">{t('record.noContact')}</Typography.Text>
        <Space wrap>
          <Button
            size="small"
            type="primary"
            loading={saving}
            data-testid="record-create-contact"
            onClick={() => void run(() => put({}))}
          >
            {t('record.createContact')}
          </Button>
          {can(CONTACTS_CODE) && (
            <Button size="small" onClick={() => setMode('link')} data-testid="record-link-contact">
              {t('record.linkContact')}
            </Button>
          )}
        </Space>
      </Space>
    );
  const rows: Array<[string, string]> = [
    [t('card.name'), c.name],
    [t('card.phone'), c.phone],
    [t('card.email'), c.email.split(',').join(', ')],
    [t('card.company'), c.company],
    [t('card.memo'), c.memo],
  ];
  return (
    <div data-testid="record-contact">
      <dl
        style={{
          display: 'grid',
          gridTemplateColumns: 'max-content minmax(0, 1fr)',
          columnGap: 12,
          rowGap: 6,
          margin: 0,
        }}
      >
        {rows.map(([label, value]) => (
          <div key={label} style={{ display: 'contents' }}>
            <dt style={{ color: '#8c8c8c' }}>{label}</dt>
            <dd style={{ margin: 0, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>{value || '—'}</dd>
          </div>
        ))}
      </dl>
      <div style={{ marginTop: 8 }}>
        <TagChips tags={c.tags} />
      </div>
      <Button
        type="link"
        size="small"
        style={{ paddingInline: 0 }}
        onClick={() => {
          form.setFieldsValue(toFormValues(c));
          setMode('edit');
        }}
        data-testid="record-contact-edit"
      >
        {t('common.edit')}
      </Button>
    </div>
  );
}
