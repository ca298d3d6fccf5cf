import { DatePicker, Form, Input, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { CONTACT_LIMITS, GENDERS, type ContactDto, type Gender, userDisplayName } from '@kefu/protocol';
import { get } from '../../../lib/api';
import { rules } from '../../../lib/formRules';
import { tagsApi } from '../../tags/api';
import type { ContactFields } from '../api';

/** The form's values: the birthday as a date, the rest as sent. */
export type ContactFormValues = Omit<ContactFields, 'birthday'> & { birthday?: Dayjs | null };

export const toFormValues = (c: ContactDto): ContactFormValues => ({
  name: c.name,
  phone: c.phone,
  email: c.email,
  company: c.company,
  gender: c.gender,
  region: c.region,
  address: c.address,
  birthday: c.birthday ? dayjs(c.birthday) : null,
  memo: c.memo,
  tags: c.tags.map((x) => x.id),
  owner: c.owner ?? undefined,
});

/** Form values → the call's fields ('' clears a text; the birthday as YYYY-MM-DD). */
export const toFields = (v: ContactFormValues): ContactFields => ({
  ...v,
  birthday: v.birthday ? v.birthday.format('YYYY-MM-DD') : v.birthday === null ? '' : undefined,
});

/**
 * The contact fields with the spec validators (mobile, comma-separated emails). `brief` keeps the few a
 * chat panel edits inline (name, mobile, email, company, memo).
 */
export function ContactFormItems({ brief, testId = 'contact-form' }: { brief?: boolean; testId?: string }) {
  const { t, i18n } = useTranslation();
  const r = rules(i18n.language);
  const tags = useQuery({
    queryKey: ['tags', 'user'],
    queryFn: ({ signal }) => tagsApi.list('user', signal),
    enabled: !brief,
  });
  const users = useQuery({
    queryKey: ['userList'],
    queryFn: ({ signal }) =>
      get<Array<{ id: string; username: string; uname: string }>>('/common/userList', undefined, signal),
    enabled: !brief,
  });
  const gender = (g: Gender) => t(g ? `card.gender.${g}` : 'card.gender.unknown');
  return (
    <>
      <Form.Item name="name" label={t('card.name')} rules={[r.required]}>
        <Input maxLength={CONTACT_LIMITS.name} data-testid={`${testId}-name`} />
      </Form.Item>
      <Form.Item name="phone" label={t('card.phone')} rules={[r.phone]}>
        <Input maxLength={11} data-testid={`${testId}-phone`} />
      </Form.Item>
      <Form.Item
        name="email"
        label={t('card.email')}
        rules={[r.email]}
        extra={brief ? undefined : t('card.emailHint')}
      >
        <Input data-testid={`${testId}-email`} />
      </Form.Item>
      <Form.Item name="company" label={t('card.company')}>
        <Input maxLength={CONTACT_LIMITS.company} data-testid={`${testId}-company`} />
      </Form.Item>
      {!brief && (
        <>
          <Form.Item name="gender" label={t('card.gender')}>
            <Select
              data-testid={`${testId}-gender`}
              options={GENDERS.map((g) => ({ value: g, label: gender(g) }))}
            />
          </Form.Item>
          <Form.Item name="birthday" label={t('card.birthday')}>
            <DatePicker style={{ width: '100%' }} data-testid={`${testId}-birthday`} />
          </Form.Item>
          <Form.Item name="region" label={t('card.region')}>
            <Input maxLength={CONTACT_LIMITS.region} data-testid={`${testId}-region`} />
          </Form.Item>
          <Form.Item name="address" label={t('card.address')}>
            <Input maxLength={CONTACT_LIMITS.address} data-testid={`${testId}-address`} />
          </Form.Item>
          <Form.Item name="tags" label={t('card.tags')}>
            <Select
              mode="multiple"
              allowClear
              data-testid={`${testId}-tags`}
              options={(tags.data ?? []).map((x) => ({ value: x.id, label: x.name }))}
            />
          </Form.Item>
          <Form.Item name="owner" label={t('card.owner')}>
            <Select
              showSearch
              optionFilterProp="label"
              data-testid={`${testId}-owner`}
              options={(users.data ?? []).map((u) => ({ value: u.id, label: userDisplayName(u) }))}
            />
          </Form.Item>
        </>
      )}
      <Form.Item name="memo" label={t('card.memo')}>
        <Input.TextArea rows={brief ? 2 : 3} maxLength={CONTACT_LIMITS.memo} data-testid={`${testId}-memo`} />
      </Form.Item>
    </>
  );
}
