import { Button, List, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { QualityFindingDto } from '@kefu/protocol';
import { duration } from '../../history/components/format';

/** Values measured in ms by these rules (the others count or name a level). */
const TIMED = new Set(['first_response', 'silence', 'abandoned']);

/**
 * What the automatic rules found, each with the messages it cites (clicking them outlines them in the
 * transcript). While scoring, "adopt" puts a finding on the chosen item: its points and its messages.
 */
export function Findings(props: {
  findings: QualityFindingDto[];
  msgLabel: (messageid: string) => string;
  onShow: (messageids: string[]) => void;
  onAdopt?: (f: QualityFindingDto) => void;
  canAdopt: boolean;
}) {
  const { t } = useTranslation();
  if (!props.findings.length)
    return <Typography.Text type="secondary">{t('qc.finding.none')}</Typography.Text>;
  return (
    <List
      size="small"
      data-testid="qc-findings"
      dataSource={props.findings}
      renderItem={(f) => (
        <List.Item
          data-testid={`qc-finding-${f.rule}`}
          actions={
            props.onAdopt
              ? [
                  <Tooltip key="a" title={props.canAdopt ? '' : t('qc.finding.chooseItem')}>
                    <Button
                      size="small"
                      type="link"
                      disabled={!props.canAdopt}
                      data-testid={`qc-adopt-${f.rule}`}
                      onClick={() => props.onAdopt?.(f)}
                    >
                      {t('qc.finding.adopt')}
                    </Button>
                  </Tooltip>,
                ]
              : undefined
          }
        >
          <div>
            <Tooltip title={t(`qc.rule.${f.rule}.hint`)}>
              <Tag color="purple">{t(`qc.rule.${f.rule}`)}</Tag>
            </Tooltip>
            {f.points > 0 && <Tag color="orange">−{f.points}</Tag>}
            <Typography.Text>
              {TIMED.has(f.rule) && f.value ? `${duration(t, f.value)} ` : ''}
              {f.detail}
            </Typography.Text>{' '}
            {f.messageids.map((m) => (
              <Tag key={m} style={{ cursor: 'pointer' }} onClick={() => props.onShow(f.messageids)}>
                {props.msgLabel(m)}
              </Tag>
            ))}
          </div>
        </List.Item>
      )}
    />
  );
}
