import { Card, Col, Row, Statistic, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { AnalysisResultDto } from '@kefu/protocol';
import { delta, formatFigure } from './format';
import { FigureTitle } from './FigureTitle';

/** The period's totals (= the table's total row), each with its change against the previous period. */
export function SummaryCards({ result }: { result: AnalysisResultDto }) {
  const { t } = useTranslation();
  return (
    <Row gutter={[12, 12]} data-testid="analysis-summary" style={{ marginBottom: 12 }}>
      {result.figures.map((fig) => {
        const d = delta(result.total[fig], result.previous?.[fig]);
        return (
          <Col key={fig} xs={12} md={8} lg={6} xl={4}>
            <Card size="small">
              <Statistic
                title={<FigureTitle fig={fig} />}
                value={formatFigure(fig, result.total[fig])}
                valueStyle={{ fontSize: 20 }}
              />
              {result.previous && (
                <Typography.Text
                  type="secondary"
                  style={{ fontSize: 12 }}
                  data-testid={`analysis-prev-${fig}`}
                >
                  {t('analysis.previous')} {formatFigure(fig, result.previous[fig])}
                  {d !== null && (
                    <span style={{ marginLeft: 6, color: d >= 0 ? '#3f8600' : '#cf1322' }}>
                      {d >= 0 ? <ArrowUpOutlined /> : <ArrowDownOutlined />} {Math.abs(d * 100).toFixed(1)}%
                    </span>
                  )}
                </Typography.Text>
              )}
            </Card>
          </Col>
        );
      })}
    </Row>
  );
}
