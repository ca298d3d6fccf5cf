import { useEffect, useMemo } from 'react';
import { Form, Input, InputNumber, Modal, Select, TreeSelect } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { buildOrganTree, skillList, userApi, type Organ, type User, type UserInput } from '../api';
import { rules } from '../../../lib/formRules';
import { applyFieldErrors } from '../../../lib/formErrors';

export type UserDraft = { mode: 'create'; organ?: string } | { mode: 'edit'; user: User };

interface Fields {
  username: string;
  password?: string;
  uname: string;
  email?: string;
  mobile?: string;
  usertype: '0' | '1';
  organ?: string;
  organs: string[];
  roles: string[];
  maxusers?: number | null;
}

export function UserForm(props: {
  draft: UserDraft | null;
  organs: readonly Organ[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const { draft, organs, onClose, onSaved } = props;
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<Fields>();
  const usertype = Form.useWatch('usertype', form);
  const r = rules(i18n.language);
  const open = draft !== null;
  const editing = draft?.mode === 'edit';
  const tree = useMemo(() => buildOrganTree(organs), [organs]);
  const roles = useQuery({
    queryKey: ['roles', 'options'],
    queryFn: ({ signal }) => userApi.roles(signal),
    enabled: open,
  });
  const skills = useQuery({
    queryKey: ['skills'],
    queryFn: ({ signal }) => skillList(signal),
    enabled: open,
  });

  useEffect(() => {
    if (!draft) return;
    form.resetFields();
    if (draft.mode === 'edit') {
      const u = draft.user;
      form.setFieldsValue({
        username: u.username,
        password: '',
        uname: u.uname,
        email: u.email ?? '',
        mobile: u.mobile ?? '',
        usertype: u.usertype === '0' ? '0' : '1',
        organ: u.organ ?? undefined,
        organs: u.organs ?? [],
        roles: (u.roles ?? []).map((x) => x.id),
        maxusers: u.maxusers ?? null,
      });
    } else {
      form.setFieldsValue({ usertype: '1', organ: draft.organ, organs: [], roles: [] });
    }
  }, [draft, form]);

  const submit = async (v: Fields) => {
    const body: UserInput = {
      username: v.username.trim(),
      uname: v.uname.trim(),
      // '' clears a value on update (docs/api.md).
      email: v.email?.trim() ?? '',
      mobile: v.mobile?.trim() ?? '',
      usertype: v.usertype,
      organ: v.organ,
      organs: v.organs,
      roles: v.roles,
      maxusers: v.maxusers ?? undefined,
      // Blank on edit keeps the current password (docs/api.md).
      password: v.password ? v.password : undefined,
    };
    try {
      if (draft?.mode === 'edit') await userApi.update({ id: draft.user.id, ...body });
      else await userApi.save(body);
      onSaved();
    } catch (e) {
      applyFieldErrors(form, e);
    }
  };

  return (
    <Modal
      open={open}
      title={t(editing ? 'user.edit' : 'user.new')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ 'data-testid': 'user-submit' }}
      width={640}
      forceRender
      styles={{ body: { maxHeight: '65vh', overflowY: 'auto', paddingRight: 8 } }}
    >
      <Form<Fields>
        form={form}
        layout="vertical"
        onFinish={submit}
        scrollToFirstError={{ behavior: 'smooth', block: 'center' }}
        data-testid="user-form"
      >
        <Form.Item name="username" label={t('user.username')} rules={[r.required]}>
          <Input data-testid="user-username" autoComplete="off" disabled={editing} maxLength={50} />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('user.password')}
          rules={editing ? [] : [r.required]}
          extra={editing ? t('user.passwordKeep') : undefined}
        >
          <Input.Password data-testid="user-password" autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="uname" label={t('user.uname')} rules={[r.required]}>
          <Input data-testid="user-uname" maxLength={50} />
        </Form.Item>
        <Form.Item name="email" label={t('user.email')} rules={[r.email]}>
          <Input data-testid="user-email" />
        </Form.Item>
        <Form.Item name="mobile" label={t('user.mobile')} rules={[r.phone]}>
          <Input data-testid="user-mobile" />
        </Form.Item>
        <Form.Item name="usertype" label={t('user.usertype')} rules={[r.required]}>
          <Select
            data-testid="user-usertype"
            options={[
              { value: '1', label: t('user.usertype.1') },
              { value: '0', label: t('user.usertype.0') },
            ]}
          />
        </Form.Item>
        <Form.Item name="organ" label={t('user.organ')}>
          <TreeSelect data-testid="user-organ" allowClear treeDefaultExpandAll treeData={tree} />
        </Form.Item>
        <Form.Item name="organs" label={t('user.organs')}>
          <Select
            data-testid="user-organs"
            mode="multiple"
            allowClear
            optionFilterProp="label"
            loading={skills.isLoading}
            options={(skills.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
          />
        </Form.Item>
        <Form.Item
          name="roles"
          label={t('user.roles')}
          dependencies={['usertype']}
          // A user gets its permissions from its roles; the all-powerful type needs none.
          extra={usertype === '0' ? t('user.rolesAdminHint') : t('user.rolesHint')}
          rules={[
            {
              validator: async (_: unknown, v?: string[]) => {
                if (usertype !== '0' && !v?.length) throw new Error(t('user.rolesRequired'));
              },
            },
          ]}
        >
          <Select
            data-testid="user-roles"
            mode="multiple"
            allowClear
            optionFilterProp="label"
            loading={roles.isLoading}
            options={(roles.data ?? []).map((x) => ({ value: x.id, label: x.name }))}
          />
        </Form.Item>
        <Form.Item name="maxusers" label={t('user.maxusers')}>
          <InputNumber
            data-testid="user-maxusers"
            min={0}
            max={999}
            precision={0}
            style={{ width: '100%' }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
