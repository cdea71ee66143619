import { useEffect, useMemo, useState, type ComponentType } from 'react';
import { Button, Form, Modal, Select, Space, Typography } from 'antd';
import {
  BookOutlined,
  CalendarOutlined,
  CarOutlined,
  GiftOutlined,
  HomeOutlined,
  MessageOutlined,
  NotificationOutlined,
  PictureOutlined,
  StarOutlined,
  ToolOutlined,
} from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useSearchParams } from 'react-router';
import { category, CATEGORY_ICONS, CATEGORY_MODULE, type CategoryIcon, type CategoryItem } from '@wuye/contract/setup/category';
import { enumText } from '@wuye/contract/kit/resource';
import { request } from '../../api';
import { noticeSuccess, toastError } from '../../api/feedback';
import {
  invalidateResource,
  ResourcePage,
  useCanWrite,
  useFormFromAddress,
  useResourceForm,
  useResourceList,
  type Widgets,
} from '../../components/resource';

const LIST = '/setup/category';
/** the list's filters stay at its own address when the page opened at …add or …edit */
const LIST_OPTIONS = { path: LIST };

const ICONS: Record<CategoryIcon, ComponentType> = {
  notification: NotificationOutlined,
  calendar: CalendarOutlined,
  picture: PictureOutlined,
  tool: ToolOutlined,
  message: MessageOutlined,
  home: HomeOutlined,
  car: CarOutlined,
  gift: GiftOutlined,
  book: BookOutlined,
  star: StarOutlined,
};
const ICON_WORDS: Record<CategoryIcon, string> = {
  notification: '公告',
  calendar: '日历',
  picture: '图片',
  tool: '工具',
  message: '消息',
  home: '房屋',
  car: '车辆',
  gift: '礼物',
  book: '手册',
  star: '星标',
};

export function CategoryIconView({ icon }: { icon: string }) {
  const Icon = ICONS[icon as CategoryIcon];
  return Icon ? (
    <span title={ICON_WORDS[icon as CategoryIcon]} style={{ fontSize: 18 }}>
      <Icon />
    </span>
  ) : null;
}

/** The icon picker: each icon drawn beside its word. */
function IconSelect(props: { value?: string; onChange?: (v: string) => void; 'data-testid'?: string }) {
  return (
    <Select
      allowClear
      placeholder="不选则不显示图标"
      value={props.value || undefined}
      onChange={(v?: string) => props.onChange?.(v ?? '')}
      data-testid={props['data-testid']}
      options={CATEGORY_ICONS.map((i) => ({
        value: i,
        label: (
          <Space>
            <CategoryIconView icon={i} />
            {ICON_WORDS[i]}
          </Space>
        ),
      }))}
    />
  );
}
const widgets: Widgets = { icon: IconSelect as Widgets[string] };

/** 移走并删除: a used category's rows go to another category of its module, then it goes. */
function MoveAndDelete({ row, onDone }: { row: CategoryItem; onDone: () => void }) {
  const [open, setOpen] = useState(false);
  const [target, setTarget] = useState<number>();
  const [saving, setSaving] = useState(false);
  const [options, setOptions] = useState<Array<{ value: number; label: string }>>([]);
  useEffect(() => {
    if (!open) return;
    void request('categorylist', { module: row.module, limit: 200 }).then(
      (res) => setOptions(res.data.items.filter((c) => c.id !== row.id).map((c) => ({ value: c.id, label: c.title }))),
      () => undefined,
    );
  }, [open, row.id, row.module]);
  const submit = async () => {
    if (!target) return toastError('请选择要移到的分类');
    setSaving(true);
    try {
      const res = await request('categorydel', { id: row.id, move_to: target });
      noticeSuccess(res.return_msg);
      setOpen(false);
      onDone();
    } catch {
      /* the client has shown the refusal */
    } finally {
      setSaving(false);
    }
  };
  return (
    <>
      <Button size="small" danger type="link" onClick={() => setOpen(true)} data-testid={`category-move-${row.id}`}>
        移走并删除
      </Button>
      <Modal
        open={open}
        title={`删除分类“${row.title}”`}
        okText="移走并删除"
        okButtonProps={{ danger: true, loading: saving, disabled: !target }}
        onOk={() => void submit()}
        onCancel={() => setOpen(false)}
        destroyOnHidden
      >
        <Typography.Paragraph>
          该分类下有 {row.use_count} 条{enumText(CATEGORY_MODULE, row.module)}记录。选择同一模块的另一个分类，这些记录移到那里后删除本分类。
        </Typography.Paragraph>
        <Form layout="vertical">
          <Form.Item label="移到分类" required>
            <Select
              value={target}
              onChange={setTarget}
              options={options}
              placeholder="选择分类"
              data-testid="category-move-target"
              notFoundContent="该模块没有其他分类，请先新增一个"
            />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}

/**
 * /setup/category (业务分类): the community's categories of notices, activities, graphics, repairs
 * and complaints; /setup/categoryadd and /setup/categoryedit?id= open the same form from a link.
 * A used category is deleted by moving its rows (移走并删除).
 */
export default function CategoryList() {
  const { pathname } = useLocation();
  const route = pathname.endsWith('/categoryadd') ? 'add' : pathname.endsWith('/categoryedit') ? 'edit' : null;
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const canWrite = useCanWrite(category.def.roles.write);
  const list = useResourceList(category, LIST_OPTIONS);
  const form = useResourceForm(category);
  const linkId = Number(params.get('id')) || 0;

  useFormFromAddress({ route, linkId, items: list.items, ready: !list.loading, form, listPath: LIST, missing: '分类不存在' });

  const columns = useMemo(() => ({ icon: { render: (v: string) => <CategoryIconView icon={v} /> } }), []);
  return (
    <ResourcePage<CategoryItem>
      resource={category}
      listOptions={LIST_OPTIONS}
      title="业务分类"
      form={form}
      widgets={widgets}
      columns={columns}
      rowActions={(row) =>
        canWrite && row.use_count > 0 ? (
          <MoveAndDelete row={row} onDone={() => void invalidateResource(queryClient, category.def.name)} />
        ) : null
      }
    />
  );
}
