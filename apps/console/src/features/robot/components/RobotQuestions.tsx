import { useState } from 'react';
import {
  App,
  Button,
  Card,
  Col,
  Empty,
  Form,
  Input,
  Row,
  Segmented,
  Select,
  Space,
  Statistic,
  Table,
  TreeSelect,
  Typography,
} from 'antd';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AiDegreeDay, AiUnansweredDto } from '@kefu/protocol';
import { robotApi } from '../api';
import { kbApi } from '../../knowledge/api';
import { analysisApi } from '../../analysis/api';
import { TrendChart } from '../../../components/analysis/AnalysisChart';
import { PRESETS, presetRange, todayIn, type Preset } from '../../../components/analysis/dates';
import { FormModal } from '../../../components/FormModal';
import { RichTextInput } from '../../../components/RichTextInput';
import { rules } from '../../../lib/formRules';
import { formatTime } from '../../../lib/time';
import { treeData } from '../../../lib/tree';

type Figure = Exclude<keyof AiDegreeDay, 'day'>;
const FIGURES: Figure[] = [
  'questions',
  'answered',
  'suggested',
  'fallback',
  'handoffs',
  'conversations',
  'resolved',
];
const CHART: Figure[] = ['questions', 'answered', 'suggested', 'fallback', 'handoffs'];

/** A zone's offset at a moment, in minutes as Date.getTimezoneOffset() counts it (UTC − local). */
export function zoneOffset(timeZone: string, at: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(at);
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const local = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'));
  return Math.round((Math.floor(at / 60_000) * 60_000 - local) / 60_000);
}

interface Learn {
  typeid?: string;
  question: string;
  answer: string;
}

/**
 * The robot's own figures under the AI statistics (GET /api/analyse/aiDegree/robot): questions by outcome,
 * robot chats, handoffs and chats the robot solved, by day and by robot, and the unanswered questions, each
 * of which can be added to the knowledge base here. Days are the tenant's, as in the figures above.
 */
export function RobotQuestions() {
  const { t, i18n } = useTranslation();
  const r = rules(i18n.language);
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [preset, setPreset] = useState<Exclude<Preset, 'custom'>>('last7');
  const [robotid, setRobotid] = useState<string | undefined>();
  const [learning, setLearning] = useState<AiUnansweredDto | null>(null);
  // Days of the tenant's time zone, as the figures above (the same options call as the analysis screen).
  const options = useQuery({
    queryKey: ['analysisOptions', 'aiDegree'],
    queryFn: ({ signal }) => analysisApi.options('aiDegree', signal),
    staleTime: 60_000,
  });
  const zone = options.data?.timezone ?? 'Asia/Shanghai';
  const [begin, end] = presetRange(preset, todayIn(zone));
  const q = { begin, end, robotid, tz: zoneOffset(zone, Date.parse(`${begin}T12:00:00Z`)) };
  const stats = useQuery({
    queryKey: ['aiDegreeRobot', q],
    queryFn: ({ signal }) => robotApi.stats(q, signal),
    placeholderData: keepPreviousData,
    enabled: options.isSuccess,
  });
  const robots = useQuery({ queryKey: ['robots'], queryFn: ({ signal }) => robotApi.list(signal) });
  const types = useQuery({ queryKey: ['kbTypes'], queryFn: ({ signal }) => kbApi.types(signal) });
  const d = stats.data;

  return (
    <Card size="small" title={t('aistat.title')} style={{ marginTop: 16 }} data-testid="ai-robot-stats">
      <Space wrap style={{ marginBottom: 12 }}>
        <Segmented<Exclude<Preset, 'custom'>>
          value={preset}
          onChange={setPreset}
          options={PRESETS.map((p) => ({ value: p, label: t(`analysis.preset.${p}`) }))}
        />
        <Select
          allowClear
          placeholder={t('aistat.robot')}
          style={{ width: 180 }}
          value={robotid}
          onChange={setRobotid}
          options={(robots.data ?? []).map((x) => ({ value: x.id, label: x.name }))}
        />
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {begin} ~ {end} · {t('analysis.timezone', { tz: zone })}
        </Typography.Text>
      </Space>
      {d && (
        <Row gutter={[12, 12]} style={{ marginBottom: 12 }}>
          {FIGURES.map((f) => (
            <Col key={f} xs={12} md={8} lg={6} xl={3}>
              <Card size="small">
                <Statistic
                  title={t(`aistat.${f}`)}
                  value={d.totals[f]}
                  valueStyle={{ fontSize: 20 }}
                  data-testid={`ai-total-${f}`}
                />
              </Card>
            </Col>
          ))}
        </Row>
      )}
      {d && d.totals.questions + d.totals.conversations > 0 ? (
        <TrendChart
          kind="line"
          testId="ai-robot-chart"
          labels={d.days.map((x) => x.day.slice(5))}
          series={CHART.map((f) => ({ name: t(`aistat.${f}`), values: d.days.map((x) => x[f]) }))}
        />
      ) : (
        <Empty description={t('analysis.empty')} style={{ margin: '16px 0' }} />
      )}
      {d && d.robots.length > 0 && (
        <Table
          size="small"
          rowKey="robotid"
          pagination={false}
          style={{ marginBottom: 16 }}
          dataSource={d.robots}
          columns={[
            { title: t('aistat.robot'), dataIndex: 'name' },
            ...FIGURES.map((f) => ({ title: t(`aistat.${f}`), dataIndex: f })),
          ]}
        />
      )}
      <Typography.Title level={5}>{t('aistat.unanswered')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('aistat.unansweredHint')}</Typography.Paragraph>
      <Table<AiUnansweredDto>
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={d?.unanswered ?? []}
        data-testid="ai-unanswered"
        columns={[
          { title: t('kb.question'), dataIndex: 'question' },
          { title: t('aistat.times'), dataIndex: 'times', width: 80 },
          {
            title: t('aistat.last'),
            dataIndex: 'lastTime',
            width: 170,
            render: (v: number) => formatTime(v),
          },
          {
            title: t('common.actions'),
            width: 120,
            render: (_: unknown, row) => (
              <Button
                type="link"
                size="small"
                onClick={() => setLearning(row)}
                data-testid={`ai-learn-${row.question}`}
              >
                {t('aistat.learn')}
              </Button>
            ),
          },
        ]}
      />
      <FormModal<Learn>
        open={learning !== null}
        title={t('aistat.learnTitle')}
        testId="ai-learn-form"
        width={640}
        initialValues={{ question: learning?.question ?? '', answer: '' }}
        onCancel={() => setLearning(null)}
        onSubmit={async (v) => {
          await robotApi.learn({ id: learning!.id, ...v });
          setLearning(null);
          void message.success(t('aistat.learned'));
          void qc.invalidateQueries({ queryKey: ['aiDegreeRobot'] });
        }}
      >
        <Form.Item name="typeid" label={t('kb.type')}>
          <TreeSelect allowClear treeDefaultExpandAll treeData={treeData(types.data ?? [])} />
        </Form.Item>
        <Form.Item name="question" label={t('kb.question')} rules={[r.required]}>
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item name="answer" label={t('kb.answer')} rules={[r.required]}>
          <RichTextInput maxLength={5000} testId="ai-learn-answer" />
        </Form.Item>
      </FormModal>
    </Card>
  );
}
