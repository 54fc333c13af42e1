# ruff: noqa: E501  (a msgid is a key as the code writes it: long sentences stay one line)
"""Chinese (simplified): a teacher's change kept through a store outage, and a following phone that edits
(issue 41, defects 6 and 7). Register and terms as docs/i18n/glossary.md's live class."""

T = {
    "**The class has not got this yet**: the live class cannot be reached just now. Your last change is kept and sent as soon as it is back.": "**全班还没有收到这一步**：暂时无法连接实时课堂。你的最新更改已保留，连接恢复后会立即发送。",
    "You changed the example, so you now explore on your own: the teacher's steps no longer replace your edits. *Back to the teacher* takes the class's example again.": "你修改了示例，因此现在是自行探索：老师的步骤不会再替换你的修改。点 *回到老师这里* 即可重新使用课堂的示例。",
}
