import { useEffect } from 'react';
import { Form, Input, Modal, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AccessPointDto } from '@kefu/protocol';
import { accessApi, type AccessDraft } from '../api';
import { skillList } from '../../section/api';
import { rules } from '../../../lib/formRules';
import { showFieldErrors } from './fieldErrors';

export type AccessFormState = { mode: 'create' } | { mode: 'edit'; ap: AccessPointDto };

export function AccessForm(props: {
  state: AccessFormState | null;
  onClose: () => void;
  onSaved: (ap: AccessPointDto) => void;
}) {
  const { state, onClose, onSaved } = props;
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<AccessDraft>();
  const r = rules(i18n.language);
  const skills = useQuery({
    queryKey: ['skillList'],
    queryFn: ({ signal }) => skillList(signal),
    enabled: !!state,
  });

  useEffect(() => {
    if (!state) return;
    form.resetFields();
    if (state.mode === 'edit')
      form.setFieldsValue({ name: state.ap.name, domain: state.ap.domain, organ: state.ap.organ });
  }, [state, form]);

  const submit = async (v: AccessDraft) => {
    const body = { name: v.name.trim(), domain: (v.domain ?? '').trim(), organ: v.organ ?? '' };
    try {
      onSaved(
        state?.mode === 'edit'
          ? await accessApi.update({ ...body, id: state.ap.id })
          : await accessApi.save(body),
      );
    } catch (e) {
      showFieldErrors(form, e);
    }
  };

  return (
    <Modal
      open={state !== null}
      title={t(state?.mode === 'edit' ? 'access.edit' : 'access.new')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ 'data-testid': 'access-submit' }}
      forceRender
    >
      <Form<AccessDraft>
        form={form}
        layout="vertical"
        onFinish={submit}
        scrollToFirstError
        data-testid="access-form"
      >
        <Form.Item name="name" label={t('access.name')} rules={[r.required]}>
          <Input data-testid="access-name" maxLength={50} />
        </Form.Item>
        <Form.Item name="domain" label={t('access.domain')} extra={t('access.domainHint')}>
          <Input data-testid="access-domain" maxLength={255} />
        </Form.Item>
        <Form.Item name="organ" label={t('access.organ')}>
          <Select
            allowClear
            placeholder={t('access.organNone')}
            options={(skills.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
