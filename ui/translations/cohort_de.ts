<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>cohort::ActivityModel</name>
    <message>
        <source>Info</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Severity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Category</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cohort::ActivityPage</name>
    <message>
        <source>Clear</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Empty this list; the engine keeps running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Everything</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warnings and errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Errors only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show events of this severity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All subsystems</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show events of this subsystem</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the selected events (or all shown) as text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save diagnostics…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A zip of events, status, settings and versions for a bug report; never your key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the engine has been doing, newest at the bottom.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cohort::DashboardPage</name>
    <message>
        <source>This node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node ID</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hub</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Registered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last heartbeat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Joined task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rollouts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last problem</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compute device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU use</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory in use</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Used by Cohort</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last 5 minutes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU chart range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Let this computer work again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop working until you resume; nothing is lost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (1 failure since)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (%1 failures since)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>detecting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 GPU: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GPUs: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 batch accepted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 batches accepted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, %1 rejected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, %1 tokens generated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (%1 tokens/s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; last batch scored %1 of 100 with version %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; 1 batch waiting to be sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; %1 batches waiting to be sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; last rejection: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>version %1, verified</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>downloading version %1: %2% of %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> at %1/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, %1 s left</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source> (%n relay(s))</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>; download of version %1 paused at %2%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; download failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Relay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Success</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fetched</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In flight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checkpoint relays</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 MB/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not measured</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n failure(s): %1</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>not training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not training: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>joining the training ring…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>outer step %1, inner step %2 of %3, training alone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>outer step %1, inner step %2 of %3, %4 peers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> — averaging with the others</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> — syncing the shared model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; loss %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; 1 outer step contributed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; %1 outer steps contributed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; last average moved %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, last sync fetched %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, in step with the others</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stopped after </source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cohort::DataFolderMove</name>
    <message>
        <source>Choose the folder to move the data to.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a full path (an absolute folder).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>That is the current data folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The new folder cannot be inside the current data folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This path is a file, not a folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The current data folder is inside that folder. Choose an empty folder or a new one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>That folder already holds Cohort data with another node key. Choose an empty folder or a new one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>That folder is not empty. Choose an empty folder or a new one: Cohort does not mix its data with other files.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The current data folder %1 does not exist, so there is nothing to move.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not create %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not enough free space in %1: the data needs %2, %3 are free.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The move was cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not copy %1 to %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The copy of %1 does not match the original.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cohort::DesktopApp</name>
    <message>
        <source>Cohort is still running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It keeps working in the notification area. Use Quit in its menu to stop it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save diagnostics</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zip archives (*.zip)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The diagnostics were not saved: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved %1.
It contains the recent events, the status, your settings and the names of the files in the data folder; never your node key.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cohort::EarningsChart</name>
    <message>
        <source>Confirmed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>credits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 / hour</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cohort::EarningsPage</name>
    <message>
        <source>Last 24 hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last 30 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the hourly history as a spreadsheet file (times in UTC)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Confirmed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Pending&lt;/b&gt; is work you have reported that the hub has not checked yet. &lt;b&gt;Confirmed&lt;/b&gt; is work the hub has verified and credited to this node. &lt;b&gt;Refused&lt;/b&gt; was accepted at first, then failed verification.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No earnings yet — earnings appear here once your machine&apos;s work is verified by the hub.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Batches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Today %1 · 7 days %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last updated %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The hub cannot be reached right now. These are the figures saved on this computer; they update when the hub answers again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export earnings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV files (*.csv);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Saved %n hour(s) of history to %1</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Could not save %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 kWh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Energy: not read yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No GPU power readings: the energy Cohort uses cannot be measured on this computer, so earnings are shown without its cost.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Energy used by the GPUs: today %1 · 7 days %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set your electricity price in Settings › Account to see what it costs and your earnings net of it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Electricity cost: today %1 · 7 days %2. Set what one credit is worth in Settings › Account to see earnings net of it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Earnings net of electricity: today %1 · 7 days %2 (electricity %3 over 7 days; earnings pending and confirmed, at %4 per credit)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cohort::GpuCard</name>
    <message>
        <source>% · °C</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>W</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Utilization %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>VRAM %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Temperature °C</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Power W</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1% busy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>utilization %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 °C</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>temperature %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>VRAM %1 of %2%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>VRAM %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 W of %2 W</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 W</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>power %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>clocks: SM %1, memory %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 MHz</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fan %1%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU %1: %2 (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>hours ago</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>minutes ago</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cohort::MainWindow</name>
    <message>
        <source>Cohort</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dashboard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Earnings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Activity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Cohort</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Main</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Resume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cohort::Notifier</name>
    <message>
        <source>Cohort has stopped working</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cohort cannot reach its hub</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It keeps trying and resumes by itself.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cohort paused: not enough disk space</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Free some space or raise the disk cap in Settings › Storage.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A model download failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cohort tries again later.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The hub refused a batch of work</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>See the Activity page for details.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model downloaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Version %1 of %2 is ready; work continues with it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Work failed verification</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The hub refused %1 %2 of work it had accepted. If this repeats, check the Activity page.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your first work was verified</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The hub confirmed %1 %2 for this computer.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cohort::SettingsDialog</name>
    <message>
        <source>Cohort Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Empty: run a local network on this computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The address of the hub that hands out work, e.g. https://hub.example.org.
Leave it empty to try Cohort with a small network that runs on this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How this computer is shown to the hub&apos;s operator. Empty: the computer&apos;s name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> KiB/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The most bandwidth model downloads may use. 0: no limit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start minimized to the notification area</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start Cohort when I log in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting at login is not available on this system.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Managed by the system: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Network</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hub address:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download limit:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data folder:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only when idle for</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Work only after this long without keyboard or mouse input, and stop as soon as you are back.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> minutes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause on battery power</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any time, e.g. mon-fri 22:00-06:00; weekend 00:00-24:00</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time windows when Cohort may work, separated by &apos;;&apos;. Days: mon … sun, ranges (mon-fri), daily, weekdays, weekend. A window ending before it starts runs past midnight.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> °C</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At this GPU temperature Cohort slows down (half, then a quarter of the time); 8 °C above it, it pauses. It speeds up again 5 °C below the limit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> W</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> GiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No cap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The most space Cohort&apos;s data folder may use; at the cap it pauses and says so.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When to work</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Idle:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Schedule:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Battery:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU temperature limit:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU power limit:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Disk space cap:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the data folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Settings pages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>General</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compute</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Storage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Account</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Changing the hub, the node name, the data folder or the download limit restarts the engine.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no notification area right now, so the window opens at start even when this is ticked, and notifications cannot be shown.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tick at least one GPU, or use all of them. To use none, pause Cohort.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move the data folder to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export the node key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key files (*.key);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System default (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notifications</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Errors only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Errors and milestones</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Errors: Cohort stopped, lost its hub, ran out of disk space or had work refused.
Milestones: your first verified work, a model download finished.
At most one message of each kind every 15 minutes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Language:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A new language applies the next time Cohort starts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notifications:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use all GPUs, including ones added later</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs Cohort may use</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Work only when idle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Idle minutes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU temperature limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU power limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The most power the chosen GPUs may draw together; above it Cohort slows down.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (not detected now)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No GPUs detected (no NVIDIA driver answered). Cohort computes on the CPU; once GPUs are detected they are listed here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hub address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Upload limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Proxy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No proxy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use the system&apos;s proxy settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Manual HTTP proxy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Proxy address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>host:port, e.g. proxy.example.org:3128</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Upload limit:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Proxy:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Proxy address:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The proxy applies to new connections at once; connections to this computer (the local network) never use it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where the node keeps its identity key, downloaded models and history. Changing it here starts over in that folder; use Move… to take the data along.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose another data folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move the data folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the data to another folder, check every file, switch to it, then delete the old copy.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Disk space cap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move Cohort&apos;s data from
%1
to
%2?

Cohort stops working while it copies the files and checks every copy, then switches to the new folder. The old files are deleted only after that succeeded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copying and checking: %1 of %2…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopping the engine…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copying and checking…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Moved to %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Moved to %1. %n item(s) in the old folder were not Cohort&apos;s or could not be deleted and were left there.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>The data folder was not moved: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Known once the engine has started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the node id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export key…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save a copy of this node&apos;s secret key, e.g. to move the node to another computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Payout address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Electricity price per kWh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not set</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> per kWh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Currency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. EUR</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value of one credit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What one credit is worth to you, in the same currency. With it, the Earnings page shows earnings net of electricity; without it, only the electricity cost.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node id:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Payout and energy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Payout address:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Electricity price:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One credit is worth:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Valid. With checksum: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An Ethereum-style address: 0x and 40 hexadecimal digits. Mixed upper and lower case must match the address checksum (EIP-55); all lower or all upper case has none.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no node key yet: it is created when the engine first starts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The node key is this node&apos;s identity: whoever has the file can act as this node and is credited its earnings. Keep the copy private (Cohort saves it readable by you only), and never send it to anyone, including support.

Export it now?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose another place than the key file itself.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not read the node key %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not save %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved %1, but could not make it private: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved the node key to %1 (readable by you only).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move… takes the node key, models and history along. Typing or browsing to another folder instead starts over there, with a new node key.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cohort computes on the chosen GPUs from its next start; the temperature and power limits and the energy shown under Earnings count them at once.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> % of each GPU&apos;s memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU memory Cohort may use</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cohort keeps the rest free for your games and other programs: its batches are generated in smaller parts to fit, and a task whose model does not fit is shown greyed on the Tasks page.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use at most</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The most bandwidth uploads to other computers may use: DiLoCo training traffic to the other nodes of its ring. Applies at once. 0: no limit.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cohort::TasksPage</name>
    <message>
        <source>Tasks offered by the hub. Pick one to lend this computer to it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reward</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Needs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Join</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leave</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Joined</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not part of any task yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Joined: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for the hub&apos;s list of tasks…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a task to read what it does.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Needs: %1. Reward: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Joining %1 tasks is coming in a later version. This version connects to the hub, shows its tasks and reports your computer&apos;s state; it does not run task work yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On this computer: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cohort::TrayIcon</name>
    <message>
        <source>Open Cohort</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause after this batch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Snooze</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For 15 minutes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For 1 hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Until tomorrow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cohort — %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · today %1 credits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resume</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Pause now (drops %n s of work in hand)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Pausing after this batch…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cohort::WelcomeDialog</name>
    <message>
        <source>Welcome to Cohort</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Cohort lends this computer to train AI models together with other people.&lt;/b&gt;&lt;/p&gt;&lt;p&gt;While it works, it uses your GPU (or CPU) to generate and check training data for the network you chose, and shows what it did and what it earned. It reads nothing else on this computer and sends only that work, the computer&apos;s state and its hardware summary.&lt;/p&gt;&lt;p&gt;It works only when you allow it: pause it from the tray at any time, and choose below when it may work. Every choice can be changed later in Settings.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start Cohort when I log in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Work only when nobody uses this computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause on battery power</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> °C</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cohort slows down at this GPU temperature and pauses 8 °C above it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU temperature limit:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not now</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cohort::display</name>
    <message>
        <source>measuring…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of 1 core</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 cores</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 (%3%)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>never</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Local network (embedded)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Local network (embedded) at %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not connected yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RL rollouts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>DiLoCo training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>DiLoCo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>credits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2 / verified step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2 / 1k verified tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1+ CPU core</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1+ CPU cores</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 RAM</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no GPU needed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 disk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1+ core</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1+ cores</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
