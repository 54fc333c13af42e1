# ruff: noqa: E501  (a msgid is a key as the code writes it: long sentences stay one line)
"""Simplified Chinese: the live class, its notices, the teacher's console and the dashboard
(issue 36).

Plainly (你), as docs/i18n/glossary.md asks; 实时课堂, 老师, 手机, 代码, 投影 as the frame and
the Start page say them; full-width punctuation around Latin text and numbers.
"""

T = {
    "**Each step**": "**每一步**",
    "**Each student** (✓ right, ✗ wrong with its slip, · not tried)": (
        "**每位学生**（✓ 正确，✗ 错误及其常见错误，· 未尝试）"
    ),
    "**Live class {code}**": "**实时课堂 {code}**",
    "**Live class {code}**: exploring on your own": "**实时课堂 {code}**：你正在自行探索",
    "**Live class {code}**: following the teacher": "**实时课堂 {code}**：正在跟随老师",
    "**Live class {code}**: the class follows you to this page": (
        "**实时课堂 {code}**：全班跟随你来到此页"
    ),
    "**Practice at their own pace** on the Exercises page, with the same code: phones that join go there.": (
        "在练习页面**按自己的节奏练习**，使用同一个代码：加入的手机会进入该页面。"
    ),
    "**Practice at your own pace**: you are seat {number}, “{nick}”.": (
        "**按自己的节奏练习**：你是 {number} 号座位，“{nick}”。"
    ),
    "**Practice at your own pace**: you are seat {number}.": (
        "**按自己的节奏练习**：你是 {number} 号座位。"
    ),
    "**Question for the class.** {question}": "**给全班的问题。** {question}",
    "**Question:** {question}": "**问题：** {question}",
    "**The class at its own pace**: {n} student": ("**全班按自己的节奏练习**：{n} 名学生",),
    "**{n} student** in the practice": ("**{n} 名学生**正在练习",),
    "1 row, numbers by commas": "1 行，数字用逗号分隔",
    "A nickname for your teacher (optional: only your teacher sees it)": (
        "给老师看的昵称（可选：只有老师能看到）"
    ),
    "A nickname has at most {n} characters.": "昵称最多 {n} 个字符。",
    "A nickname is plain text: letters, digits, spaces, punctuation.": (
        "昵称只能是普通文本：字母、数字、空格和标点。"
    ),
    "Already leading a class on another device? Open your control link here.": (
        "已经在另一台设备上主持课堂？在这里打开你的控制链接。"
    ),
    "Answer": "答案",
    "Answer: {format}.": "答案：{format}。",
    "Anyone who has this link drives your class: scan it with your own phone, and hide it before you project this screen.": (
        "任何拿到此链接的人都能控制你的课堂：请用你自己的手机扫描，并在投影此屏幕之前将其隐藏。"
    ),
    "Ask": "提问",
    "Ask for": "提问内容",
    "Ask the class": "向全班提问",
    "At any step: the projector and every phone take it at once.": (
        "任何一步都可以：投影和每部手机会立即采用。"
    ),
    "At least one exercise stays open.": "至少要保留一道练习开放。",
    "Back to the teacher": "回到老师这里",
    "Bar chart of {answered} answer: {parts}.": ("{answered} 个回答的条形图：{parts}。",),
    "Close the question": "关闭问题",
    "Column": "列",
    "Copied": "已复制",
    "Copy failed (the clipboard needs https): copy it above": (
        "复制失败（剪贴板需要 https）：请从上方复制"
    ),
    "Copy my control link": "复制我的控制链接",
    "Counts on the projector (no names)": "在投影上显示人数（不显示名字）",
    "Each seat's progress (JSON, zip)": "每个座位的进度（JSON，zip）",
    "Each student works through the exercises you open, on their own phone; this console shows who is where and who is stuck.": (
        "每位学生在自己的手机上完成你开放的练习；此控制台显示谁做到哪里、谁卡住了。"
    ),
    "End it for everyone": "为所有人结束",
    "End the class": "结束课堂",
    "Every phone leaves the class, and its answers are deleted with it.": (
        "所有手机都会离开课堂，课堂的回答也会一并删除。"
    ),
    "Exercise": "练习",
    "Exercises open": "开放的练习",
    "Explore on my own": "自行探索",
    "Eyes on the screen": "请看屏幕",
    "Go on": "继续",
    "Go there": "前往",
    "Hide the join screen": "隐藏加入界面",
    "It drives this class: open it on your own phone to use it as a remote, or after a restart to take the class back.": (
        "它可以控制这堂课：在你自己的手机上打开，把手机当作遥控器；或在重启后用它重新接管课堂。"
    ),
    "Join at": "加入地址",
    "Join screen": "加入界面",
    "Lead a live class from here, off the projector. **Go live** opens a class on presentation mode's first slide with the current example; open presentation mode (or any page) on the projector, and every phone that joins follows you there.": (
        "在这里主持实时课堂，不占用投影画面。**开始实时课堂**会以当前示例在演示模式的第一张"
        "幻灯片上开课；在投影上打开演示模式（或任意页面），每部加入的手机都会跟随你到那里。"
    ),
    "Live class: reconnecting…": "实时课堂：正在重新连接…",
    "Live class: reconnecting… This page works on its own meanwhile.": (
        "实时课堂：正在重新连接… 在此期间，本页面可以独立使用。"
    ),
    "Live class: reconnecting… the answers are kept in the class's store.": (
        "实时课堂：正在重新连接… 回答保存在课堂的存储中。"
    ),
    "Live class: reconnecting… the checks are kept in the class's store.": (
        "实时课堂：正在重新连接… 检查记录保存在课堂的存储中。"
    ),
    "Lock the class to": "将全班锁定到",
    "No live class has the code {code}: check it with your teacher (the class may have ended).": (
        "没有代码为 {code} 的实时课堂：请向老师核对（课堂可能已经结束）。"
    ),
    "No student yet: phones that join with the code appear here.": (
        "还没有学生：用代码加入的手机会显示在这里。"
    ),
    "Nobody is stuck.": "没有人卡住。",
    "Not asked: the live class cannot be reached just now.": ("未提问：暂时无法连接实时课堂。"),
    "Not changed: the live class cannot be reached just now.": ("未更改：暂时无法连接实时课堂。"),
    "Not sent yet: the class cannot be reached just now. Your answer is kept and goes out by itself when the class is back, or press Send to try again.": (
        "尚未发送：暂时无法连接课堂。你的答案已保留，课堂恢复后会自动发送；也可以按“发送”重试。"
    ),
    "Not started: the live class cannot be reached just now.": ("未开始：暂时无法连接实时课堂。"),
    "Nothing was sent: correct it and send again.": "没有发送任何内容：请改正后重新发送。",
    "Open": "开放",
    "Open at least one exercise.": "请至少开放一道练习。",
    "Open the next": "开放下一道",
    "Open the next: {exercise}": "开放下一道：{exercise}",
    "Open the projector view": "打开投影视图",
    "Pause: eyes on the screen": "暂停：请看屏幕",
    "Phones on this server follow only every few seconds: it cannot write the class's watch file ({error}).": (
        "此服务器上的手机只能每隔几秒跟随一次：它无法写入课堂的监视文件（{error}）。"
    ),
    "Practice at their own pace": "按自己的节奏练习",
    "QR code of your control link": "你的控制链接的二维码",
    "QR code of {address}": "{address} 的二维码",
    "Results (CSV)": "结果（CSV）",
    "Reveal": "揭晓答案",
    "Right first": "首次即正确",
    "Right in the end": "最终正确",
    "Seat {number}": "{number} 号座位",
    "Send": "发送",
    "Sent: your first answer is the one counted.": "已发送：计入的是你的第一个答案。",
    "Show my control link": "显示我的控制链接",
    "Show the counts on the projector": "在投影上显示人数",
    "Show the join screen": "显示加入界面",
    "Slips, most common first": "常见错误（按出现次数从多到少）",
    "So far {answered} answered, {right} right.": "目前已有 {answered} 人回答，{right} 人正确。",
    "Someone in this class is already called '{nick}': choose another nickname.": (
        "课堂里已经有人叫“{nick}”：请换一个昵称。"
    ),
    "Start the lesson": "开始上课",
    "Start the practice": "开始练习",
    "Step": "步骤",
    "Stop the practice": "停止练习",
    "Student": "学生",
    "Stuck": "卡住",
    "Stuck after (minutes without progress)": "多久算卡住（无进展的分钟数）",
    "Students may see the class's counts before the reveal": "学生在揭晓前可以看到全班的统计",
    "Students see if they are right": "学生何时看到自己是否正确",
    "Take the class to": "带全班前往",
    "That is not a class code: a code has {n} letters and digits, like {example}.": (
        "这不是课堂代码：代码由 {n} 个字母和数字组成，例如 {example}。"
    ),
    "The answer": "答案",
    "The answer: {answer}": "答案：{answer}",
    "The class cannot be reached just now: try again.": "暂时无法连接课堂：请重试。",
    "The class is on **{page}**, step {k} of {n}: **{step}**": (
        "全班在 **{page}**，第 {k} 步，共 {n} 步：**{step}**"
    ),
    "The class is on **{page}**.": "全班在 **{page}**。",
    "The class's answers": "全班的回答",
    "The class's page as the class sees it, with the join code, in a new tab: put that window on the projector.": (
        "在新标签页中打开全班看到的页面（带加入代码）：把那个窗口放到投影上。"
    ),
    "The live class cannot be reached just now: open the control link again soon.": (
        "暂时无法连接实时课堂：请稍后再次打开控制链接。"
    ),
    "The live class cannot be reached just now: try again in a moment.": (
        "暂时无法连接实时课堂：请稍后重试。"
    ),
    "The live class has ended.": "实时课堂已结束。",
    "The live class of this control link has ended.": "此控制链接对应的实时课堂已结束。",
    "The question was closed before your answer arrived.": "你的答案到达之前，问题已经关闭。",
    "The session (CSV)": "本次练习（CSV）",
    "This address is this computer's own (loopback): phones cannot reach it. Set {setting}, or start the app with {command}.": (
        "这是本机自己的地址（回环地址）：手机无法访问。请设置 {setting}，或用 {command} 启动应用。"
    ),
    "This control link does not drive any live class (it may be old or wrong).": (
        "此控制链接不对应任何实时课堂（可能已过期或有误）。"
    ),
    "Too many wrong codes from this device: try again in a minute.": (
        "此设备输入错误代码的次数过多：请一分钟后重试。"
    ),
    "Too many wrong codes: try again in {seconds} s.": "错误代码次数过多：请 {seconds} 秒后重试。",
    "Tried": "已尝试",
    "Tried: checked at least once. Right first: the first check was right. Right in the end: the last check is right.": (
        "已尝试：至少检查过一次。首次即正确：第一次检查就正确。最终正确：最后一次检查正确。"
    ),
    "Use it": "使用",
    "You had already answered: your first answer is the one counted.": (
        "你已经回答过了：计入的是你的第一个答案。"
    ),
    "Your answer": "你的答案",
    "Your answer: **{answer}**": "你的答案：**{answer}**",
    "Your answers are kept on this phone and reach your teacher when the class is back. Go on working.": (
        "你的答案保存在这部手机上，课堂恢复后会发送给老师。请继续做题。"
    ),
    "Your control link drives this class from another device (your phone as a remote). It is hidden until you ask: never project it.": (
        "你的控制链接可以从另一台设备控制这堂课（把手机当作遥控器）。它在你要求之前一直隐藏：切勿投影。"
    ),
    "Your controls (pause, ask, reveal, end) in a new tab, off the projector": (
        "在新标签页中打开你的控制项（暂停、提问、揭晓、结束），不占用投影画面"
    ),
    "Your teacher has opened one exercise for now.": "老师目前只开放了一道练习。",
    "Your teacher has paused the class. This page comes back by itself.": (
        "老师暂停了课堂。本页面稍后会自动恢复。"
    ),
    "Your teacher sees your checks; no other student does.": (
        "老师能看到你的检查记录；其他学生看不到。"
    ),
    "a lesson's exercise": "课程中的练习",
    "a number of this slide": "这张幻灯片上的一个数",
    "a scaled score": "一个缩放后的分数",
    "a score": "一个分数",
    "an attention weight": "一个注意力权重",
    "an output entry": "输出中的一个元素",
    "answer": "回答",
    "at once": "立即",
    "code {letters}": "代码 {letters}",
    "e.g. {name}": "例如 {name}",
    "no lock: every open one": "不锁定：所有开放的练习",
    "no progress for {minutes} min": "{minutes} 分钟没有进展",
    "one row per line": "每行输入矩阵的一行",
    "other": "其他",
    "paused": "已暂停",
    "right": "正确",
    "solution": "看过解答",
    "students": "学生",
    "when I reveal": "在我揭晓时",
    "with the code": "代码",
    "{lead}: **{answer}**. {worked}": "{lead}：**{answer}**。{worked}",
    "{answered} answered": ("{answered} 人已回答",),
    "{answered} answered of {n} following": ("{n} 名跟随者中 {answered} 人已回答",),
    "{answered} of {n} student answered": ("{n} 名学生中 {answered} 人已回答",),
    "{n} not sent yet.": ("{n} 条尚未发送。",),
    "{n} stuck": ("{n} 人卡住",),
    "{n} student following": ("{n} 名学生跟随中",),
    "{n} student following. Press to show the join screen.": (
        "{n} 名学生跟随中。按下可显示加入界面。",
    ),
    "{n} wrong try on {step} ({slip})": ("在 {step} 上错了 {n} 次（{slip}）",),
}
