import { describe, expect, it } from 'vitest';
import { noticeText, safeHref, sanitizeNoticeHtml } from './noticeHtml.js';

const clean = sanitizeNoticeHtml;
/** nothing that could run: no script tag, no on* attribute, no javascript:/data:/vbscript: address, no style */
const inert = (html: string) => {
  expect(html).not.toMatch(/<script/i);
  expect(html).not.toMatch(/<[^>]+\son[a-z]+\s*=/i);
  expect(html).not.toMatch(/(javascript|vbscript|data):/i);
  expect(html).not.toMatch(/style\s*=/i);
  expect(html).not.toMatch(/<(iframe|object|embed|svg|math|style|form|input|meta|link|base)/i);
};

describe('sanitizeNoticeHtml', () => {
  it('keeps the editor’s formatting', () => {
    const html =
      '<h2>停水通知</h2><p>因<strong>管网</strong>检修，<em>1号楼</em>停水。</p><ul><li>时间：<u>周六</u></li></ul>' +
      '<ol><li>一</li></ol><blockquote>引用</blockquote><p><a href="https://example.com/x?a=1&amp;b=2">详情</a><br></p>' +
      '<p><img src="/files/12/0123456789abcdef0123456789abcdef.png" alt="图"></p>';
    expect(clean(html)).toBe(
      '<h2>停水通知</h2><p>因<strong>管网</strong>检修，<em>1号楼</em>停水。</p><ul><li>时间：<u>周六</u></li></ul>' +
        '<ol><li>一</li></ol><blockquote>引用</blockquote><p><a href="https://example.com/x?a=1&amp;b=2" target="_blank" rel="noopener noreferrer nofollow">详情</a><br></p>' +
        '<p><img src="/files/12/0123456789abcdef0123456789abcdef.png" alt="图"></p>',
    );
  });

  it.each([
    '<script>alert(1)</script>',
    '<SCRIPT SRC=//x.js></SCRIPT>',
    '<scr<script>ipt>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '<img src="/files/12/0123456789abcdef0123456789abcdef.png" onerror="alert(1)">',
    '<p onclick="alert(1)">x</p>',
    '<p/onmouseover=alert(1)>x</p>',
    '<a href="javascript:alert(1)">x</a>',
    '<a href="JaVaScRiPt:alert(1)">x</a>',
    '<a href=" javascript:alert(1)">x</a>',
    '<a href="jav&#x09;ascript:alert(1)">x</a>',
    '<a href="jav&#97;script:alert(1)">x</a>',
    '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
    '<a href="java\u0000script:alert(1)">x</a>',
    '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
    '<a href="vbscript:msgbox(1)">x</a>',
    '<a href="//evil.example/x">x</a>',
    '<img src="data:image/png;base64,AAAA">',
    '<img src="javascript:alert(1)">',
    '<p style="background:url(javascript:alert(1))">x</p>',
    '<p style="width: expression(alert(1))">x</p>',
    '<div style="behavior:url(x.htc)">x</div>',
    '<style>body{background:url(javascript:alert(1))}</style>',
    '<iframe src="https://evil.example"></iframe>',
    '<svg><script>alert(1)</script></svg>',
    '<svg onload=alert(1)>',
    '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
    '<object data="x.swf"></object><embed src="x.swf">',
    '<form action="https://evil.example"><input name=x></form>',
    '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
    '<base href="javascript:alert(1)//">',
    '<!--<script>alert(1)</script>-->',
    '<![CDATA[<script>alert(1)</script>]]>',
    '<p title="x" onclick=\'alert(1)\'>x</p>',
    '<a href="https://ok.example" onclick="alert(1)">x</a>',
    '"><script>alert(1)</script>',
    '<img src="https://ok.example/a.png" alt="x" onload="alert(1)">',
    '<<script>alert(1);//<</script>',
    '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
    '<textarea><script>alert(1)</script></textarea>',
    '<template><script>alert(1)</script></template>',
    '<p>unterminated <img src=x onerror=alert(1)',
  ])('makes %s inert', (payload) => {
    inert(clean(payload));
  });

  it('escapes text that looks like markup and keeps it readable', () => {
    expect(clean('a &lt;script&gt; b')).toBe('a &lt;script&gt; b');
    expect(clean('1 < 2 > 0 & ok')).toBe('1 &lt; 2 &gt; 0 &amp; ok');
  });

  it('keeps an attribute value from breaking out of its quotes', () => {
    const out = clean('<img src="/files/12/0123456789abcdef0123456789abcdef.png" alt="a&quot; onerror=&quot;alert(1)">');
    expect(out).toBe('<img src="/files/12/0123456789abcdef0123456789abcdef.png" alt="a&quot; onerror=&quot;alert(1)">');
    inert(out.replace(/alt="[^"]*"/, ''));
  });

  it('closes what it opened, and drops stray end tags', () => {
    expect(clean('<p><strong>x')).toBe('<p><strong>x</strong></p>');
    expect(clean('</p>x</div>')).toBe('x');
    expect(clean('<ul><li>a<li>b</ul>')).toBe('<ul><li>a<li>b</li></li></ul>');
  });

  it('drops unknown tags but keeps their text', () => {
    expect(clean('<font color=red>红</font><span>字</span>')).toBe('红字');
  });
});

describe('safeHref', () => {
  it('takes http(s), mailto, tel and our own paths only', () => {
    expect(safeHref('https://a.example/x')).toBe('https://a.example/x');
    expect(safeHref('mailto:a@b.cn')).toBe('mailto:a@b.cn');
    expect(safeHref('tel:13800138000')).toBe('tel:13800138000');
    expect(safeHref('/files/1/x.png')).toBe('/files/1/x.png');
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref('//evil.example')).toBeNull();
    expect(safeHref('/\\evil.example')).toBeNull();
    expect(safeHref('ftp://x')).toBeNull();
  });
});

describe('noticeText', () => {
  it('answers the text alone', () => {
    expect(noticeText('<p>停水&amp;停电</p><p> </p>')).toBe('停水&停电');
    expect(noticeText('<p><br></p>')).toBe('');
  });
});
