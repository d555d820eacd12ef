"""Credential words in other languages and scripts: "password" (``LABELS``, with its
labels of several words as code joins them, ``JOINED``), and "secret", "token", "API
key", "secret key" and "access token" (``FOREIGN_KEYS``, spelt with ``_`` where they are
several words, so that every convention is tried)."""

from __future__ import annotations

LABELS = (  # "password" in other languages and scripts (NFKC-equal colons: see redact)
    "passwort", "kennwort", "contraseña", "contrasena", "contrasenya", "senha",
    "palavra-passe", "mot de passe", "wachtwoord", "wagwoord", "hasło", "haslo", "lösenord",
    "losenord", "adgangskode", "passord", "salasana", "salasõna", "parool", "parola",
    "parolă", "parole", "jelszó", "jelszo", "heslo", "geslo", "lozinka", "slaptažodis",
    "şifre", "sifre", "lykilorð", "kata sandi", "kata laluan", "katalaluan", "mật khẩu",
    "mat khau", "пароль", "парола", "лозинка", "гасло", "κωδικός", "συνθηματικό", "סיסמה",
    "pasahitza", "contrasinal", "cyfrinair", "pasfhocal", "nenosiri", "fjalëkalimi",
    "fjalëkalim", "passwuert", "pasvorto", "parol", "şifrə", "құпия сөз", "нууц үг",
    "ключ доступа", "პაროლი", "գաղտնաբառ", "গোপন শব্দ", "পাসওয়ার্ড",
    "கடவுச்சொல்", "పాస్‌వర్డ్", "ಪಾಸ್‌ವರ್ಡ್", "പാസ്‌വേഡ്", "પાસવર્ડ", "ਪਾਸਵਰਡ", "پاس ورڈ",
    "මුරපදය", "ពាក្យសម្ងាត់", "ລະຫັດຜ່ານ", "စကားဝှက်", "የይለፍ ቃል", "kalmar sirri",
    "iphasiwedi", "loyniorð",
    "סיסמא", "كلمة المرور", "كلمة السر", "رمز عبور", "गुप्त शब्द", "पासवर्ड", "รหัสผ่าน",
    "密码", "密碼", "口令", "パスワード", "暗証番号", "비밀번호", "암호")
# a label of several words as every convention joins them: `mot de passe`, mot_de_passe,
# mot-de-passe, motdepasse (and motDePasse: the rules ignore case), كلمة_المرور
JOINED = tuple(w.replace(" ", sep) for w in LABELS if " " in w for sep in ("_", "-", ""))

FOREIGN_KEYS = (
    "geheim", "geheimnis", "segreto", "secreto", "segredo", "sekret", "hemlighet",
    "hemmelighed", "hemmelighet", "salaisuus", "tajemstvi", "tajemství", "секрет",
    "秘密", "シークレット", "비밀", "jeton", "jeton_acces", "jeton_d_acces",
    "jeton_d_accès", "zugriffstoken", "token_de_acceso", "token_di_accesso", "токен",
    "токен_доступа", "令牌", "访问令牌", "トークン", "アクセストークン", "토큰",
    "cle_api", "clé_api", "cle_d_api", "clé_d_api", "chiave_api", "clave_api",
    "clave_de_api", "chave_api", "chave_de_api", "api_schluessel", "api_schlüssel",
    "api_sleutel", "klucz_api", "api_anahtari", "api_anahtarı", "api_ключ", "ключ_api",
    "api密钥", "apiキー", "api_키", "cle_secrete", "clé_secrète", "chiave_segreta",
    "clave_secreta", "chave_secreta", "geheimer_schluessel", "geheimer_schlüssel",
    "geheimschluessel", "geheimschlüssel", "секретный_ключ", "密钥", "秘钥", "秘密鍵",
    "비밀_키", "비밀키",
)
