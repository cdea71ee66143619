import { useMemo } from 'react';
import { Alert, Button, Form, Input, InputNumber, Radio, Select, Space } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { CALENDAR_CYCLES, PERSONAL_CYCLES, RULE_CYCLE, affairRule, careAffair, type AffairRuleItem } from '@wuye/contract/crm/careAffairs';
import { request } from '../../../api/client';
import { noticeSuccess } from '../../../api/feedback';
import { ResourcePage, invalidateResource, useCanWrite, type Widgets } from '../../../components/resource';
import { RuleTagInput } from './parts';

type InputProps<T> = { value?: T; onChange?: (v: T | null) => void; 'data-testid'?: string };

/** The page's cycles as radio buttons. */
function cycleInput(cycles: readonly string[]) {
  return function CycleInput({ value, onChange, 'data-testid': testId }: InputProps<string>) {
    return (
      <Radio.Group
        value={value}
        onChange={(e) => onChange?.(e.target.value as string)}
        options={cycles.map((c) => ({ value: c, label: RULE_CYCLE[c as keyof typeof RULE_CYCLE].text }))}
        data-testid={testId}
      />
    );
  };
}

/** The cycle filter: the page's cycles only. */
function cycleFilter(cycles: readonly string[]) {
  return function CycleFilter({ value, onChange, 'data-testid': testId }: InputProps<string>) {
    return (
      <Select
        value={value}
        onChange={(v) => onChange?.(v ?? null)}
        allowClear
        placeholder="全部周期"
        options={cycles.map((c) => ({ value: c, label: RULE_CYCLE[c as keyof typeof RULE_CYCLE].text }))}
        style={{ width: '100%' }}
        data-testid={testId}
      />
    );
  };
}

/** 每月几号: asked of the monthly and quarterly rules only. */
function DayOfMonthInput({ value, onChange, 'data-testid': testId }: InputProps<number>) {
  const cycle = Form.useWatch('cycle', Form.useFormInstance()) as string | undefined;
  const used = cycle === 'monthly' || cycle === 'quarterly';
  return (
    <InputNumber
      min={1}
      max={28}
      precision={0}
      value={used ? value : null}
      onChange={(v) => onChange?.(v)}
      disabled={!used}
      placeholder={used ? '1 到 28' : '每月、每季时填写'}
      style={{ width: '100%' }}
      data-testid={testId}
    />
  );
}

/** 节日日期 (MM-DD): asked of the festival rules only. */
function FestivalInput({ value, onChange, 'data-testid': testId }: InputProps<string>) {
  const cycle = Form.useWatch('cycle', Form.useFormInstance()) as string | undefined;
  const used = cycle === 'festival';
  return (
    <Input
      value={used ? (value ?? '') : ''}
      onChange={(e) => onChange?.(e.target.value)}
      disabled={!used}
      maxLength={5}
      placeholder={used ? 'MM-DD，如 10-01' : '节日时填写'}
      data-testid={testId}
    />
  );
}

/**
 * /crm/setaffair (个人纪念日规则: 每年生日, 入住周年) and /crm/setgroupaffair (定期与节日规则: 每月,
 * 每季 visits of a tag, 节日); docs/product.md#crm-care. The daily job makes each rule's affairs
 * the days ahead, once per customer and occurrence; 立即执行 runs it now for today.
 */
export default function RuleList() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const canWrite = useCanWrite(affairRule.def.roles.write);
  const personal = pathname.endsWith('/setaffair');
  const cycles = personal ? PERSONAL_CYCLES : CALENDAR_CYCLES;
  const page = useMemo(() => {
    // the page's category is fixed (a permanent filter); the personal rules have no day of their
    // own: the customer's birthday or move-in day is theirs
    const { scope: _scope, ...shown } = affairRule.def.fields;
    const { day_of_month: _day, festival_date: _festival, ...personalFields } = shown;
    const resource = { ...affairRule, def: { ...affairRule.def, fields: personal ? personalFields : shown } };
    return {
      resource,
      listOptions: { path: pathname, permanent: { scope: personal ? 'personal' : 'calendar' } },
      formOptions: {
        defaults: () =>
          personal
            ? { cycle: 'birthday', affair_kind: 'birthday', days_before: 7 }
            : { cycle: 'monthly', affair_kind: 'visit', days_before: 7, day_of_month: 15 },
      },
      widgets: {
        cycle: cycleInput(cycles),
        tag: RuleTagInput,
        day_of_month: DayOfMonthInput,
        festival_date: FestivalInput,
      } as unknown as Widgets,
      filterWidgets: { cycle: cycleFilter(cycles) } as unknown as Widgets,
    };
  }, [personal, pathname, cycles]);

  const run = async (rule?: AffairRuleItem) => {
    const answer = await request('affairrulerun', rule ? { rule_id: rule.id } : {});
    noticeSuccess(answer.return_msg);
    void invalidateResource(queryClient, affairRule.def.name);
    void invalidateResource(queryClient, careAffair.def.name);
  };

  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      <Alert
        type="info"
        showIcon
        title={
          personal
            ? '按每位客户自己的生日、入住纪念日，每天自动在提前天数内生成关怀事务；同一客户同一年只生成一次。'
            : '按日历（每月、每季的某天，或每年的节日）为符合条件的客户自动生成关怀事务；同一客户同一期只生成一次。'
        }
      />
      <ResourcePage<AffairRuleItem>
        resource={page.resource}
        title={personal ? '纪念日关怀规则' : '定期与节日关怀规则'}
        listOptions={page.listOptions}
        formOptions={page.formOptions}
        widgets={page.widgets}
        filterWidgets={page.filterWidgets}
        toolbar={
          <Button onClick={() => void run()} data-testid="affairrule-run">
            立即执行
          </Button>
        }
        columns={{ tag: { render: (v: string) => v || '全部客户' } }}
        rowActions={(row) => (
          <Space size={0}>
            {canWrite && row.status === 'Y' && (
              <Button size="small" type="link" onClick={() => void run(row)} data-testid={`affairrule-run-${row.id}`}>
                执行
              </Button>
            )}
            <Button
              size="small"
              type="link"
              onClick={() => void navigate(`/crm/affair?rule_id=${row.id}`)}
              data-testid={`affairrule-affairs-${row.id}`}
            >
              查看事务
            </Button>
          </Space>
        )}
      />
    </Space>
  );
}
