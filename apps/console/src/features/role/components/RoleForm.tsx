import { useMemo } from 'react';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { roleApi, type Role } from '../api';
import { rules } from '../../../lib/formRules';
import { FormModal } from '../../../components/FormModal';

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
  const r = rules(i18n.language);
  const initial = useMemo<Partial<Fields> | undefined>(
    () =>
      draft?.mode === 'edit'
        ? { name: draft.role.name, description: draft.role.description ?? '' }
        : undefined,
    [draft],
  );

  const submit = async (v: Fields) => {
    const body = { name: v.name.trim(), description: v.description?.trim() || undefined };
    onSaved(
      draft?.mode === 'edit'
        ? await roleApi.update({ id: draft.role.id, ...body })
        : await roleApi.save(body),
    );
  };

  return (
    <FormModal<Fields>
      open={draft !== null}
      title={t(draft?.mode === 'edit' ? 'role.edit' : 'role.new')}
      initialValues={initial}
      onCancel={onClose}
      onSubmit={submit}
      testId="role-form"
    >
      <Form.Item name="name" label={t('role.name')} rules={[r.required]}>
        <Input data-testid="role-name" maxLength={50} />
      </Form.Item>
      <Form.Item name="description" label={t('role.description')}>
        <Input.TextArea data-testid="role-description" rows={3} maxLength={255} />
      </Form.Item>
    </FormModal>
  );
}
