import { useEffect } from 'react';
import { App, Button, Card, Col, Empty, Form, Row, Select, Space } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { robotApi } from '../api';
import { kbApi } from '../../knowledge/api';
import {
  RobotFormItems,
  fromRobotForm,
  toRobotForm,
  type RobotFormValues,
} from '../components/RobotFormItems';
import { saveSites } from '../components/sites';
import { TestChat } from '../components/TestChat';
import { showFieldErrors } from '../../access/components/fieldErrors';
import { useSaving } from '../../../lib/saving';

/** /setup/setupRobot?id= (A09_A05_A01): one robot's settings, its websites, and the test chat beside them. */
export default function RobotSettingsScreen() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const [form] = Form.useForm<RobotFormValues>();
  const { saving, run } = useSaving();
  const robots = useQuery({ queryKey: ['robots'], queryFn: ({ signal }) => robotApi.list(signal) });
  const robot = robots.data?.find((x) => x.id === id);
  const types = useQuery({ queryKey: ['kbTypes'], queryFn: ({ signal }) => kbApi.types(signal) });
  const sites = useQuery({ queryKey: ['robotSites'], queryFn: ({ signal }) => robotApi.sites(signal) });
  useEffect(() => {
    if (robot) form.setFieldsValue(toRobotForm(robot));
  }, [robot, form]);

  const back = (
    <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate('/setup/customerRobot')}>
      {t('robot.back')}
    </Button>
  );
  const picker = (
    <Select
      style={{ width: 220 }}
      value={robot?.id}
      placeholder={t('robot.pick')}
      options={(robots.data ?? []).map((x) => ({ value: x.id, label: x.name }))}
      onChange={(v: string) => void navigate(`/setup/setupRobot?id=${v}`)}
      data-testid="robot-pick"
    />
  );
  if (!robot)
    return (
      <Card size="small" data-testid="robot-settings">
        <Space>
          {back}
          {picker}
        </Space>
        <Empty style={{ margin: 32 }} description={t('robot.pick')} />
      </Card>
    );

  const submit = (v: RobotFormValues) =>
    run(async () => {
      try {
        await robotApi.update(robot.id, fromRobotForm(v));
        await saveSites(robot, v.appids ?? []);
        void message.success(t('common.done'));
        void qc.invalidateQueries({ queryKey: ['robots'] });
      } catch (e) {
        showFieldErrors(form, e);
      }
    });

  return (
    <div data-testid="robot-settings">
      <Space style={{ marginBottom: 12 }}>
        {back}
        {picker}
      </Space>
      <Row gutter={16}>
        <Col xs={24} xl={13}>
          <Card size="small">
            <Form<RobotFormValues>
              form={form}
              layout="vertical"
              onFinish={(v) => void submit(v)}
              data-testid="robot-form"
            >
              <RobotFormItems types={types.data ?? []} sites={sites.data ?? []} />
              <Button type="primary" htmlType="submit" loading={saving} data-testid="robot-form-submit">
                {t('common.save')}
              </Button>
            </Form>
          </Card>
        </Col>
        <Col xs={24} xl={11}>
          <TestChat robotid={robot.id} />
        </Col>
      </Row>
    </div>
  );
}
