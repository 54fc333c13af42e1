"""Issue 45 (deploy-seams): the teacher's warning about a loopback ATTENTION_LAB_PUBLIC_URL in zh.
``python dev/i18n/fill_po.py zh dev/i18n/tables/deploy_seams_zh.py``."""

# ruff: noqa: E501 (one entry a line: a translator reads it whole)

# fmt: off
T = {
    "{setting} is set to {address}, this computer's own (loopback) address: phones cannot reach it. Set it to the address students use, or leave it empty so that the app finds this computer's address on the network.": '{setting} 被设为 {address}，这是本机自己的地址（回环地址）：手机无法访问。请把它设为学生使用的地址，或留空，让应用自动找到本机在网络上的地址。',
}
# fmt: on
