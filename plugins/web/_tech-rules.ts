/**
 * Our own small fingerprint table (not the GPL Wappalyzer set). A pattern's first capture group, when it
 * has one, is the version. Header names are lower-case; cookie patterns match cookie names.
 */
export interface TechRule {
  name: string;
  category: string;
  headers?: Record<string, RegExp>;
  /** Matched against <meta name="generator">. */
  generator?: RegExp;
  /** Matched against every absolute script URL. */
  scripts?: RegExp[];
  cookies?: RegExp[];
  /** Matched against the raw HTML. */
  html?: RegExp[];
  implies?: string[];
}

export const techRules: TechRule[] = [
  // Web servers
  { name: "Nginx", category: "Web server", headers: { server: /nginx(?:\/([\d.]+))?/i } },
  { name: "Apache HTTP Server", category: "Web server", headers: { server: /apache(?:\/([\d.]+))?/i } },
  { name: "Microsoft IIS", category: "Web server", headers: { server: /microsoft-iis(?:\/([\d.]+))?/i } },
  { name: "LiteSpeed", category: "Web server", headers: { server: /litespeed/i } },
  { name: "Caddy", category: "Web server", headers: { server: /caddy/i } },
  { name: "OpenResty", category: "Web server", headers: { server: /openresty(?:\/([\d.]+))?/i }, implies: ["Nginx"] },
  // CDNs and hosting
  {
    name: "Cloudflare",
    category: "CDN",
    headers: { server: /cloudflare/i, "cf-ray": /.+/ },
    cookies: [/^__cf_bm$/, /^__cfduid$/, /^cf_clearance$/],
  },
  { name: "Amazon CloudFront", category: "CDN", headers: { "x-amz-cf-id": /.+/, via: /cloudfront/i } },
  { name: "Fastly", category: "CDN", headers: { "x-fastly-request-id": /.+/, "x-served-by": /cache-[a-z]{3}/i } },
  { name: "Akamai", category: "CDN", headers: { "x-akamai-transformed": /.+/, server: /akamaighost/i } },
  { name: "Vercel", category: "Hosting", headers: { "x-vercel-id": /.+/, server: /^vercel$/i } },
  { name: "Netlify", category: "Hosting", headers: { "x-nf-request-id": /.+/, server: /^netlify$/i } },
  { name: "GitHub Pages", category: "Hosting", headers: { "x-github-request-id": /.+/, server: /^github\.com$/i } },
  { name: "Amazon S3", category: "Hosting", headers: { server: /^amazons3$/i } },
  // Languages and frameworks
  {
    name: "PHP",
    category: "Programming language",
    headers: { "x-powered-by": /php(?:\/([\d.]+))?/i },
    cookies: [/^PHPSESSID$/],
  },
  {
    name: "ASP.NET",
    category: "Web framework",
    headers: { "x-powered-by": /asp\.net/i, "x-aspnet-version": /([\d.]+)/ },
    cookies: [/^ASP\.NET_SessionId$/],
  },
  { name: "Express", category: "Web framework", headers: { "x-powered-by": /^express$/i }, implies: ["Node.js"] },
  { name: "Node.js", category: "Programming language" },
  { name: "Java", category: "Programming language", cookies: [/^JSESSIONID$/] },
  { name: "Laravel", category: "Web framework", cookies: [/^laravel_session$/], implies: ["PHP"] },
  {
    name: "Django",
    category: "Web framework",
    cookies: [/^csrftoken$/, /^django_language$/],
    html: [/name=["']csrfmiddlewaretoken["']/],
  },
  {
    name: "Ruby on Rails",
    category: "Web framework",
    cookies: [/^_[\w-]+_session$/],
    html: [/<meta name=["']csrf-param["'] content=["']authenticity_token["']/],
  },
  {
    name: "Next.js",
    category: "JavaScript framework",
    headers: { "x-powered-by": /next\.js ?([\d.]+)?/i },
    scripts: [/\/_next\/static\//],
    html: [/<script id=["']__NEXT_DATA__["']/],
    implies: ["React"],
  },
  {
    name: "Nuxt",
    category: "JavaScript framework",
    scripts: [/\/_nuxt\//],
    html: [/window\.__NUXT__/],
    implies: ["Vue.js"],
  },
  {
    name: "Gatsby",
    category: "Static site generator",
    generator: /gatsby(?: ([\d.]+))?/i,
    html: [/<div id=["']___gatsby["']/],
    implies: ["React"],
  },
  { name: "Astro", category: "Static site generator", generator: /astro(?: v?([\d.]+))?/i },
  { name: "Hugo", category: "Static site generator", generator: /hugo(?: ([\d.]+))?/i },
  { name: "Jekyll", category: "Static site generator", generator: /jekyll(?: v?([\d.]+))?/i },
  {
    name: "Docusaurus",
    category: "Static site generator",
    generator: /docusaurus(?: v?([\d.]+))?/i,
    implies: ["React"],
  },
  {
    name: "React",
    category: "JavaScript library",
    scripts: [/react(?:-dom)?(?:\.production)?(?:\.min)?\.js/i, /\/react@([\d.]+)/],
    html: [/data-reactroot/],
  },
  {
    name: "Vue.js",
    category: "JavaScript framework",
    scripts: [/vue(?:@([\d.]+))?(?:\/dist\/vue)?(?:\.global)?(?:\.prod)?(?:\.min)?\.js/i],
    html: [/data-v-[0-9a-f]{8}/],
  },
  { name: "Angular", category: "JavaScript framework", html: [/ng-version=["']([\d.]+)["']/] },
  { name: "Svelte", category: "JavaScript framework", html: [/class=["'][^"']*svelte-[a-z0-9]{5,}/] },
  {
    name: "jQuery",
    category: "JavaScript library",
    scripts: [/jquery[.-]?([\d.]+\d)?(?:\.slim)?(?:\.min)?\.js/i, /\/jquery@([\d.]+)/],
  },
  {
    name: "Bootstrap",
    category: "UI framework",
    scripts: [/bootstrap(?:@([\d.]+))?(?:\/dist\/js\/bootstrap)?(?:\.bundle)?(?:\.min)?\.js/i],
  },
  // CMS and commerce
  {
    name: "WordPress",
    category: "CMS",
    generator: /wordpress ?([\d.]+)?/i,
    scripts: [/\/wp-(?:content|includes)\//],
    html: [/\/wp-(?:content|includes)\//],
    cookies: [/^wordpress_/, /^wp-settings-/],
    implies: ["PHP"],
  },
  {
    name: "Drupal",
    category: "CMS",
    generator: /drupal ?(\d+)?/i,
    headers: { "x-drupal-cache": /.+/, "x-generator": /drupal ?(\d+)?/i },
    implies: ["PHP"],
  },
  { name: "Joomla", category: "CMS", generator: /joomla!?(?: ([\d.]+))?/i, implies: ["PHP"] },
  { name: "Ghost", category: "CMS", generator: /ghost ?([\d.]+)?/i, implies: ["Node.js"] },
  { name: "Wix", category: "Website builder", generator: /wix\.com/i, headers: { "x-wix-request-id": /.+/ } },
  {
    name: "Squarespace",
    category: "Website builder",
    generator: /squarespace/i,
    scripts: [/static1\.squarespace\.com/],
  },
  { name: "Webflow", category: "Website builder", generator: /webflow/i, html: [/data-wf-site=/] },
  {
    name: "Shopify",
    category: "Ecommerce",
    headers: { "x-shopid": /.+/, "x-shopify-stage": /.+/ },
    scripts: [/cdn\.shopify\.com/],
    cookies: [/^_shopify_/],
  },
  { name: "WooCommerce", category: "Ecommerce", scripts: [/\/plugins\/woocommerce\//], implies: ["WordPress"] },
  // Analytics, tags and widgets
  { name: "Google Tag Manager", category: "Tag manager", scripts: [/googletagmanager\.com\/gtm\.js/] },
  {
    name: "Google Analytics",
    category: "Analytics",
    scripts: [/google-analytics\.com\/(?:analytics|ga)\.js/, /googletagmanager\.com\/gtag\/js/],
    cookies: [/^_ga$/, /^_gid$/],
  },
  { name: "Plausible", category: "Analytics", scripts: [/plausible\.io\/js\//] },
  { name: "Matomo", category: "Analytics", scripts: [/matomo\.js|piwik\.js/], cookies: [/^_pk_id/] },
  { name: "Cloudflare Web Analytics", category: "Analytics", scripts: [/static\.cloudflareinsights\.com\/beacon/] },
  { name: "Hotjar", category: "Analytics", scripts: [/static\.hotjar\.com/] },
  { name: "Segment", category: "Analytics", scripts: [/cdn\.segment\.com\/analytics\.js/] },
  { name: "Stripe", category: "Payments", scripts: [/js\.stripe\.com/] },
  {
    name: "Google reCAPTCHA",
    category: "Security",
    scripts: [/google\.com\/recaptcha\//, /gstatic\.com\/recaptcha\//],
  },
  { name: "Intercom", category: "Live chat", scripts: [/widget\.intercom\.io|js\.intercomcdn\.com/] },
  { name: "Google Fonts", category: "Fonts", html: [/fonts\.googleapis\.com/] },
  { name: "Font Awesome", category: "Fonts", html: [/font-?awesome(?:[.@/-]([\d.]+\d))?/i] },
];
