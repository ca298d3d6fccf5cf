import { Col, Descriptions, Drawer, Empty, Row, Space, Spin, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { HistoryDetailDto } from '@kefu/protocol';
import { formatTime } from '../../../lib/time';
import { ConfirmLink } from '../../../components/RowActions';
import { TagChips } from '../../tags/components/TagChips';
import { historyApi } from '../api';
import { SummaryForm } from './SummaryForm';
import { Transcript } from './Transcript';
import { duration } from './format';

function Info({ d }: { d: HistoryDetailDto }) {
  const { t } = useTranslation();
  const s = d.service;
  const v = d.visitor;
  return (
    <>
      <Descriptions size="small" column={1} title={t('history.info')} data-testid="history-info">
        <Descriptions.Item label={t('history.visitor')}>
          {s.username || s.name} <Typography.Text type="secondary">({s.userid})</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('history.agent')}>{s.agentusername}</Descriptions.Item>
        <Descriptions.Item label={t('history.channel')}>{t(`channel.name.${s.channel}`)}</Descriptions.Item>
        <Descriptions.Item label={t('history.organ')}>{s.organname}</Descriptions.Item>
        <Descriptions.Item label={t('history.createtime')}>{formatTime(s.createtime)}</Descriptions.Item>
        <Descriptions.Item label={t('history.endtime')}>{formatTime(s.endtime)}</Descriptions.Item>
        <Descriptions.Item label={t('history.waittime')}>{duration(t, s.waittime)}</Descriptions.Item>
        <Descriptions.Item label={t('history.servetime')}>{duration(t, s.servetime)}</Descriptions.Item>
        <Descriptions.Item label={t('history.endby')}>
          {s.endby ? t(`history.endby.${s.endby}`) : ''}
        </Descriptions.Item>
        <Descriptions.Item label={t('history.satislevel')}>
          {s.satislevel ? t(`history.satis.${s.satislevel}`) : t('history.satis.0')}
          {s.satiscomment ? ` · ${s.satiscomment}` : ''}
        </Descriptions.Item>
        <Descriptions.Item label={t('history.messagesCount')}>
          {s.userasks} / {s.agentreplys}
        </Descriptions.Item>
        <Descriptions.Item label={t('history.tags')}>
          <TagChips tags={s.tags} testId="history-detail-tags" />
        </Descriptions.Item>
      </Descriptions>
      <Descriptions size="small" column={1} title={t('history.visitorInfo')} style={{ marginTop: 16 }}>
        <Descriptions.Item label={t('history.ip')}>{s.ipaddr || v?.ip}</Descriptions.Item>
        <Descriptions.Item label={t('history.region')}>
          {[v?.country, v?.province, v?.city].filter(Boolean).join(' ')}
        </Descriptions.Item>
        <Descriptions.Item label={t('history.browser')}>{s.browser || v?.browser}</Descriptions.Item>
        <Descriptions.Item label={t('history.os')}>{s.osname || v?.os}</Descriptions.Item>
        <Descriptions.Item label={t('history.source')}>{s.title || s.url}</Descriptions.Item>
        <Descriptions.Item label={t('history.contact')}>
          {d.contact ? (
            <span data-testid="history-contact">
              {d.contact.name} {d.contact.phone}
            </span>
          ) : (
            <Typography.Text type="secondary">{t('history.noContact')}</Typography.Text>
          )}
        </Descriptions.Item>
      </Descriptions>
    </>
  );
}

/** One record: information, the service summary (editable), blacklisting the visitor, and the transcript. */
export function HistoryDrawer(props: { id: string | null; onClose: () => void; onChanged: () => void }) {
  const { t } = useTranslation();
  const detail = useQuery({
    queryKey: ['historyDetail', props.id],
    queryFn: ({ signal }) => historyApi.detail(props.id!, signal),
    enabled: !!props.id,
  });
  const d = detail.data;
  return (
    <Drawer
      open={!!props.id}
      onClose={props.onClose}
      title={t('history.detail')}
      size="large"
      styles={{ wrapper: { width: 1040 }, body: { paddingTop: 8 } }}
      data-testid="history-drawer"
      extra={
        d && (
          <Space>
            <ConfirmLink
              label={t('history.black')}
              danger
              disabled={!d.writable}
              confirmText={t('history.blackConfirm', { name: d.service.username || d.service.userid })}
              onConfirm={async () => {
                await historyApi.black({ agentserviceid: d.service.id, controltime: 0, description: '' });
                return t('history.blacked');
              }}
              testId="history-drawer-black"
            />
          </Space>
        )
      }
    >
      {!d ? (
        detail.isError ? (
          <Empty />
        ) : (
          <Spin />
        )
      ) : (
        <Row gutter={24} style={{ height: '100%' }}>
          <Col span={10} style={{ overflowY: 'auto', maxHeight: '100%' }}>
            <Info d={d} />
            <Typography.Title level={5}>{t('history.summary')}</Typography.Title>
            <SummaryForm
              detail={d}
              onSaved={() => {
                void detail.refetch();
                props.onChanged();
              }}
            />
          </Col>
          <Col span={14} style={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
            <Typography.Title level={5}>{t('history.transcript')}</Typography.Title>
            <div style={{ flex: 1, minHeight: 0, border: '1px solid rgba(5,5,5,0.06)', borderRadius: 8 }}>
              <Transcript agentserviceid={d.service.id} />
            </div>
          </Col>
        </Row>
      )}
    </Drawer>
  );
}
