import { useEffect, useMemo } from 'react';
import { Button, Card, Form, Input, InputNumber, Select, Space, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { SECURITY_LIMITS, type SecurityPolicy } from '@kefu/protocol';
import { securityApi } from '../api';
import { get } from '../../../lib/api';
import { notify } from '../../../lib/notify';
import { useSaving } from '../../../lib/saving';
import { showFieldErrors } from '../../access/components/fieldErrors';
import { ProvidersCard } from '../components/ProvidersCard';

interface Fields extends Omit<SecurityPolicy, 'ipAllow'> {
  ipAllow: string;
}

/** /setup/corporateSecurity (A09_A07_A02): password policy, login IP allow-list, idle timeout, two-factor by role. */
export default function CorporateSecurityScreen() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [form] = Form.useForm<Fields>();
  const { saving, run } = useSaving();
  const q = useQuery({ queryKey: ['security-policy'], queryFn: ({ signal }) => securityApi.policy(signal) });
  const roles = useQuery({
    queryKey: ['roles-for-policy'],
    queryFn: ({ signal }) => get<Array<{ id: string; name: string }>>('/user/listRole', undefined, signal),
  });
  const initial = useMemo(
    () => (q.data ? { ...q.data.policy, ipAllow: q.data.policy.ipAllow.join('\n') } : undefined),
    [q.data],
  );
  useEffect(() => {
    if (initial) form.setFieldsValue(initial);
  }, [initial, form]);

  const save = (v: Fields) =>
    run(async () => {
      try {
        const saved = await securityApi.savePolicy({
          ...v,
          ipAllow: v.ipAllow
            .split(/[\r\n,]+/)
            .map((s) => s.trim())
            .filter(Boolean),
        });
        qc.setQueryData(['security-policy'], { policy: saved, ip: q.data?.ip ?? '' });
        notify.success(t('sec.corp.saved'));
      } catch (e) {
        showFieldErrors(form, e);
      }
    });
  const range = (k: keyof typeof SECURITY_LIMITS) => SECURITY_LIMITS[k] as readonly [number, number];

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Card
        title={t('sec.corp.title')}
        data-testid="corp-security"
        style={{ maxWidth: 860 }}
        loading={q.isLoading}
      >
        <Form<Fields> form={form} layout="vertical" onFinish={(v) => void save(v)} scrollToFirstError>
          <Typography.Title level={5}>{t('sec.corp.password')}</Typography.Title>
          <Space size="large" wrap>
            <Form.Item name="minLength" label={t('sec.corp.minLength')}>
              <InputNumber
                min={range('minLength')[0]}
                max={range('minLength')[1]}
                precision={0}
                data-testid="corp-minLength"
              />
            </Form.Item>
            <Form.Item name="classes" label={t('sec.corp.classes')} tooltip={t('sec.corp.classesHint')}>
              <InputNumber
                min={range('classes')[0]}
                max={range('classes')[1]}
                precision={0}
                data-testid="corp-classes"
              />
            </Form.Item>
            <Form.Item name="expireDays" label={t('sec.corp.expireDays')}>
              <InputNumber min={0} max={range('expireDays')[1]} precision={0} data-testid="corp-expireDays" />
            </Form.Item>
          </Space>
          <Typography.Title level={5}>{t('sec.corp.ip')}</Typography.Title>
          <Form.Item
            name="ipAllow"
            label={t('sec.corp.ipAllow')}
            extra={
              <>
                {t('sec.corp.ipAllowHint')} {q.data && t('sec.corp.ipSelf', { ip: q.data.ip })}
              </>
            }
          >
            <Input.TextArea rows={4} placeholder="192.168.1.0/24" data-testid="corp-ipAllow" />
          </Form.Item>
          <Typography.Title level={5}>{t('sec.corp.idle')}</Typography.Title>
          <Form.Item name="idleMinutes" label={t('sec.corp.idleMinutes')}>
            <InputNumber min={0} max={range('idleMinutes')[1]} precision={0} data-testid="corp-idleMinutes" />
          </Form.Item>
          <Typography.Title level={5}>{t('sec.corp.twofactor')}</Typography.Title>
          <Form.Item name="twofactorRoles" label={t('sec.corp.twofactorRoles')}>
            <Select
              mode="multiple"
              allowClear
              style={{ maxWidth: 480 }}
              options={(roles.data ?? []).map((r) => ({ value: r.id, label: r.name }))}
              data-testid="corp-roles"
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="corp-save">
            {t('common.save')}
          </Button>
        </Form>
      </Card>
      <ProvidersCard />
    </Space>
  );
}
