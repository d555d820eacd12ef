"""More providers' token shapes, one row each: (triggers, regex). Prefixes, lengths and
alphabets are gitleaks' (its rules' regexes, rewritten as anchored re2-safe patterns);
each row reports ``service_token``. A row whose shape has no prefix of its own gives a
case-sensitive fragment as its trigger instead."""

from __future__ import annotations

from toolpipe.secrets._rule import B64, END, URLSAFE, Rule, rule

_W = URLSAFE
_ROWS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("sk.eyj",), rf"sk\.eyJ[{_W}]{{20,512}}\.[{_W}]{{20,512}}"),  # Mapbox secret
    (("sbp_",), r"sbp_[a-f0-9]{40}"),  # Supabase
    # Login with Amazon's client secret (its client id, amzn1.application-oa2-client…, is
    # public); Amazon's Selling Partner refresh token
    (("amzn1.oa2-cs.v1.",), r"amzn1\.oa2-cs\.v1\.[a-f0-9]{64}"),
    (("Atzr|",), rf"Atzr\|[{_W}+/=|-]{{100,1024}}"),
    (("sb_secret_",), rf"sb_secret_[{_W}]{{31,128}}"),
    (("pscale_tkn_", "pscale_pw_", "pscale_oauth_"),
     rf"pscale_(?:tkn|pw|oauth)_[{_W}=.]{{32,64}}"),  # PlanetScale
    (("fo1_",), rf"fo1_[{_W}]{{43}}"),  # Fly.io
    (("fm1r_", "fm1a_", "fm2_"), rf"fm(?:1[ar]|2)_[{B64}]{{100,4096}}={{0,3}}"),
    (("dckr_pat_", "dckr_oat_"), rf"dckr_(?:pat|oat)_[{_W}]{{27,64}}"),  # Docker Hub
    (("r8_",), r"r8_[A-Za-z0-9]{37}"),  # Replicate
    (("gsk_",), r"gsk_[A-Za-z0-9]{52}"),  # Groq
    (("xai-",), r"xai-[A-Za-z0-9]{80}"),  # xAI
    (("pplx-",), r"pplx-[A-Za-z0-9]{48}"),  # Perplexity
    (("lsv2_pt_", "lsv2_sk_"), r"lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}"),  # LangSmith
    (("ntn_",), r"ntn_[0-9]{11}[A-Za-z0-9]{35}"),  # Notion
    (("secret_",), r"secret_[A-Za-z0-9]{43}"),
    (("pat",), r"pat[A-Za-z0-9]{14}\.[a-f0-9]{64}"),  # Airtable
    (("rubygems_",), r"rubygems_[a-f0-9]{48}"),
    (("cfpat-",), rf"CFPAT-[{_W}]{{43}}"),  # Contentful
    (("pnu_",), r"pnu_[A-Za-z0-9]{36}"),  # Prefect
    (("ltai",), r"LTAI[A-Za-z0-9]{20}"),  # Alibaba Cloud
    (("sgp_",), r"sgp_(?:[a-fA-F0-9]{16}|local)_[a-fA-F0-9]{40}"),  # Sourcegraph
    (("tskey-",), r"tskey-(?:api|auth|client|webhook|scim)-[A-Za-z0-9]{6,64}-[A-Za-z0-9]{16,64}"),
    (("ezak", "eztk"), r"EZ[AT]K[A-Za-z0-9]{54}"),  # EasyPost
    (("shippo_live_", "shippo_test_"), r"shippo_(?:live|test)_[a-f0-9]{40}"),
    (("sha256~",), rf"sha256~[{_W}]{{43}}"),  # OpenShift
    (("clojars_",), r"CLOJARS_[a-z0-9]{60}"),
    (("duffel_test_", "duffel_live_"), rf"duffel_(?:test|live)_[{_W}=]{{43}}"),
    (("fio-u-",), rf"fio-u-[{_W}=]{{64}}"),  # Frame.io
    (("ico-",), r"ico-[A-Za-z0-9]{32}"),  # Infracost
    (("rdme_",), r"rdme_[a-z0-9]{70}"),  # ReadMe
    (("tk-us-",), rf"tk-us-[{_W}]{{48}}"),  # Scalingo
    (("tfp_",), rf"tfp_[{_W}.=]{{59}}"),  # Typeform
    (("flwseck_test-", "flwseck-"), r"FLWSECK(?:_TEST)?-[a-h0-9]{32}-X"),  # Flutterwave
    (("oy2",), r"oy2[a-z0-9]{43}"),  # NuGet
    (("aqvn",), rf"AQVN[{_W}]{{35,38}}"),  # Yandex
    (("v1.0-",), r"v1\.0-[a-f0-9]{24}-[a-f0-9]{146}"),  # Cloudflare origin CA
    (("sm_pat_", "sm_aat_", "sm_sat_"), r"sm_(?:pat|aat|sat)_[A-Za-z0-9]{16}"),
    (("s-s4t2ud-", "s-s4t2af-"), r"s-s4t2(?:ud|af)-[a-f0-9]{64}"),  # 42 intra
    (("ops_eyj",), rf"ops_eyJ[{B64}]{{250,8192}}={{0,3}}"),  # 1Password service account
    (("atbb",), r"ATBB[A-Za-z0-9_=.\-]{32}"),  # Bitbucket
    (("aio_",), r"aio_[A-Za-z0-9]{28}"),  # Adafruit IO
    (("ddp_", "ddw_"), r"dd[pw]_[A-Za-z0-9]{36}"),  # Deno
    (("nfp_",), r"nfp_[A-Za-z0-9]{36}"),  # Netlify
    (("rnd_",), r"rnd_[A-Za-z0-9]{32}"),  # Render
    (("napi_",), r"napi_[a-z0-9]{64}"),  # Neon
    (("phx_",), r"phx_[A-Za-z0-9]{30,64}"),  # PostHog's personal key (phc_ is public)
    (("sk-lf-",),  # Langfuse's secret key (pk-lf-, its public one, is public)
     r"sk-lf-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}"),
    (("re_",), r"re_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}"),  # Resend
    (("sl.",), rf"sl\.(?:u\.)?[{_W}=]{{130,1024}}"),  # Dropbox
    (("cmvmd",), r"cmVmd[A-Za-z0-9]{59}"),  # JFrog reference token
    (("aaaaaaaaaaaaaaaaaaaaa",), r"A{21}[A-Za-z0-9%]{30,512}"),  # X (Twitter) app bearer
    (("access_token$production$", "access_token$sandbox$"),  # Braintree
     r"access_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32}"),
    # the tools of agent builders (model providers, sandboxes, crawlers) and more of
    # gitleaks' prefixes
    (("sk_",), r"sk_[a-f0-9]{48}"),  # ElevenLabs
    (("fc-",), r"fc-[a-f0-9]{32}"),  # Firecrawl
    (("e2b_",), r"e2b_[a-f0-9]{40}"),  # E2B
    (("fw_",), r"fw_[A-Za-z0-9]{24}"),  # Fireworks AI
    (("bb_live_",), rf"bb_live_[{_W}]{{20,64}}"),  # Browserbase
    (("squ_", "sqp_", "sqa_"), r"sq[upa]_[a-f0-9]{40}"),  # SonarQube
    (("xkeysib-", "xsmtpsib-"), r"x(?:keysib|smtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16}"),  # Brevo
    (("nrjs-", "nrii-", "nrra-"), rf"NR(?:JS|II|RA)-[{_W}]{{19,64}}"),  # New Relic
    (("p8e-",), r"p8e-[A-Za-z0-9]{32}"),  # Adobe
    (("pcsk_",), rf"pcsk_[{_W}]{{40,128}}"),  # Pinecone
    (("tvly-",), r"tvly-[A-Za-z0-9-]{32,64}"),  # Tavily
    (("nsec1",), r"nsec1[a-z0-9]{58}"),  # a Nostr private key (bech32)
    (("v1.local.", "v2.local.", "v3.local.", "v4.local.", "v1.public.", "v2.public.",
      "v3.public.", "v4.public."),  # PASETO: encrypted, or signed (a bearer token as a JWT is)
     rf"v[1-4]\.(?:local|public)\.[{_W}]{{40,8192}}(?:\.[{_W}]{{1,1024}})?"),
    (("pat-na1-", "pat-eu1-", "pat-ap1-"),  # HubSpot's private app tokens
     r"pat-(?:na|eu|ap)1-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"),
    (("access-production-", "access-sandbox-", "access-development-"),  # Plaid
     r"access-(?:production|sandbox|development)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}"
     r"-[0-9a-f]{4}-[0-9a-f]{12}"),
)
# shapes with no prefix: a literal inside is the trigger, the match starts `back` bytes
# before it (triggers, regex, back, shape after the trigger)
_INSIDE: tuple[tuple[str, str, int, str], ...] = (
    (".atlasv1.", rf"[A-Za-z0-9]{{14}}\.atlasv1\.[{_W}=]{{60,70}}", 14, ""),  # Terraform
    ("q~", r"[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.\-]{31,34}", 4,  # Azure AD client secret
     r"[A-Za-z0-9_~.\-]{31}"),
    ("-us", r"[0-9a-f]{32}-us[0-9]{1,2}", 32, "[0-9]"),  # Mailchimp
)
# a Microsoft Teams webhook: its host's first label comes before the trigger
_TEAMS = rule("service_token", ("webhook.office.com/webhookb2/", "outlook.office.com/webhook/"),
              r"(?<![A-Za-z0-9\-])[A-Za-z0-9\-]{1,40}\.(?:webhook|outlook)\.office\.com/"
              r"webhook(?:b2)?/[A-Za-z0-9\-@/]{40,512}", back=(41, 1), bounded=False)

# what must follow a trigger before its rule is tried (the C scan checks it): most
# prefixes are short words that ordinary text has too (`pat` in `path/to`)
# (Amazon's refresh token may hold `|` past its prefix: hypothesis found `Atzr|IwEBIA|…`)
_SHAPES = {"pat": r"[A-Za-z0-9]{14}\.", "re_": r"[A-Za-z0-9]{8}_", "sl.": rf"(?:u\.)?[{_W}=]{{64}}",
           "Atzr|": rf"[{_W}+/=|]{{8}}"}
_SHAPE = r"[A-Za-z0-9_\-+/=.~%]{8}"

PROVIDER_RULES: tuple[Rule, ...] = (
    _TEAMS,
    *(rule("service_token", triggers, regex + END, shape=_SHAPES.get(triggers[0], _SHAPE))
      for triggers, regex in _ROWS),
    *(rule("service_token", trigger, f"(?<![A-Za-z0-9_~.]){regex}{END}", back=(back, back),
           bounded=False, shape=shape) for trigger, regex, back, shape in _INSIDE),
)
