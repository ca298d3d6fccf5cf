import { Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import type { QualityCountDto } from '@kefu/protocol';

/** The caller's figures from GET count, those named by `keys`. */
export function Counts(props: { count: QualityCountDto | undefined; keys: Array<keyof QualityCountDto> }) {
  const { t } = useTranslation();
  return (
    <Row gutter={16} style={{ marginBottom: 12 }} data-testid="qc-counts">
      {props.keys.map((k) => (
        <Col key={k} xs={12} md={4}>
          <Statistic
            title={t(`qc.count.${k}`)}
            value={props.count?.[k] ?? 0}
            valueStyle={{ fontSize: 22 }}
            data-testid={`qc-count-${k}`}
          />
        </Col>
      ))}
    </Row>
  );
}
