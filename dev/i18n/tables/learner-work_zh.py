# ruff: noqa: E501  (a table of sentences, one entry a line)
"""The Chinese translations of the kept exercise work and the short link's note (issue 41,
defects 4 and 5). ``T``: msgid -> msgstr (a plural entry: its singular msgid -> a tuple of
the language's forms, one for Chinese). Written into the catalogue by
``dev/i18n/fill_po.py zh dev/i18n/tables/learner-work_zh.py``."""

T = {
    "A file this page's “Download progress (JSON)” saved, in any language: it replaces the work on this page.": "本页“下载进度（JSON）”保存的文件，任何语言均可：它会替换本页上的作答。",
    "Delete your answers from this page, this browser and the server.": "从本页、本浏览器和服务器上删除你的作答。",
    "Forget it on this browser": "在此浏览器上清除",
    "Forgotten: this page, this browser and the server hold none of your work now.": "已清除：本页、本浏览器和服务器上都不再保存你的作答。",
    "It is larger than {limit} kB; a progress file is far smaller.": "文件超过 {limit} kB；进度文件要小得多。",
    "It is not a progress file of this app (it has no exercise progress in it).": "这不是本应用的进度文件（其中没有练习进度）。",
    "It is not a progress file of this app: it is not JSON text.": "这不是本应用的进度文件：它不是 JSON 文本。",
    "It was saved by a newer version of this app (format {version}); this one reads formats 1 and 2.": "它由本应用的较新版本保存（格式 {version}）；当前版本只能读取格式 1 和 2。",
    "Kept on this server for {n} day: everything the full link holds (the numbers, the page and its settings).": (
        "在此服务器上保存 {n} 天：完整链接所含的一切（数值、页面及其设置）。",
    ),
    "Load a progress file (JSON)": "加载进度文件（JSON）",
    "Not saved yet: the server that keeps your work cannot be reached. Go on working; it is saved when the server is back (or download it now).": "尚未保存：无法连接保存你作答的服务器。请继续练习；服务器恢复后会自动保存（也可以现在下载）。",
    "That file could not be loaded, and your work is as it was: {why}": "无法加载该文件，你的作答保持不变：{why}",
    "The server that keeps your work cannot be reached just now, so it is not forgotten there: try again.": "暂时无法连接保存你作答的服务器，因此服务器上的作答尚未清除：请重试。",
    "Your progress file was loaded: {right} of {total} steps right.": "已加载你的进度文件：{total} 步中答对 {right} 步。",
    "Your work is kept on this app's server for this browser (a cookie holds its key) for {n} day after your last change. On a shared computer, forget it when you are done.": (
        "你的作答按此浏览器保存在本应用的服务器上（由一个 Cookie 保存其密钥），自最后一次修改起保留 {n} 天。在公用电脑上，用完后请清除。",
    ),
    "{n} step in the file is not one of this version's exercise steps: it was left out.": (
        "文件中有 {n} 步不属于当前版本的练习：已略去。",
    ),
}
