import { useEffect } from 'react';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { roleApi, type Role } from '../api';
import { rules } from '../../../lib/formRules';
import { applyFieldErrors } from '../../../lib/formErrors';

export type RoleDraft = { mode: 'create' } | { mode: 'edit'; role: Role };

interface Fields {
  name: string;
  description?: string;
}

export function RoleForm(props: {
  draft: RoleDraft | null;
  onClose: () => void;
  onSaved: (r: Role) => void;
}) {
  const { draft, onClose, onSaved } = props;
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<Fields>();
  const r = rules(i18n.language);

  useEffect(() => {
    if (!draft) return;
    form.resetFields();
    if (draft.mode === 'edit')
      form.setFieldsValue({ name: draft.role.name, description: draft.role.description ?? '' });
  }, [draft, form]);

  const submit = async (v: Fields) => {
    const body = { name: v.name.trim(), description: v.description?.trim() || undefined };
    try {
      onSaved(
        draft?.mode === 'edit'
          ? await roleApi.update({ id: draft.role.id, ...body })
          : await roleApi.save(body),
      );
    } catch (e) {
      applyFieldErrors(form, e);
    }
  };

  return (
    <Modal
      open={draft !== null}
      title={t(draft?.mode === 'edit' ? 'role.edit' : 'role.new')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ 'data-testid': 'role-submit' }}
      forceRender
    >
      <Form<Fields>
        form={form}
        layout="vertical"
        onFinish={submit}
        scrollToFirstError
        data-testid="role-form"
      >
        <Form.Item name="name" label={t('role.name')} rules={[r.required]}>
          <Input data-testid="role-name" maxLength={50} />
        </Form.Item>
        <Form.Item name="description" label={t('role.description')}>
          <Input.TextArea data-testid="role-description" rows={3} maxLength={255} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
