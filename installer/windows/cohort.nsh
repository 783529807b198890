; Cohort's additions to the NSIS installer that CPack generates (cpack -G NSIS on Windows).
; cmake/CohortPackaging.cmake includes this file through CPACK_NSIS_DEFINES and calls its macros from
; CPACK_NSIS_EXTRA_PREINSTALL_COMMANDS, CPACK_NSIS_EXTRA_INSTALL_COMMANDS and CPACK_NSIS_EXTRA_UNINSTALL_COMMANDS.
;
;  * A running Cohort (cohort.exe, cohortd.exe, cohort-hub.exe) is asked to quit and, after 10 s, ended, before
;    files are replaced or removed. Its data survives that: downloads resume and unsent work stays in the outbox.
;  * An upgrade replaces the program folders as a whole, so no file of an older version stays behind.
;  * Start at sign-in is optional: an unticked box on the last page, or /AUTOSTART on the command line of a
;    silent install (setup.exe /S /AUTOSTART). It writes the same HKCU Run value as the app's Settings dialog
;    (engine/platform/Autostart.cpp), so either can turn it off again.
;  * The uninstaller removes that Run value and the Start-menu entries. Settings, the node key and downloaded
;    models in %LOCALAPPDATA%\Cohort stay unless the user says otherwise when asked (silent uninstall: kept).

!include "LogicLib.nsh"
!include "FileFunc.nsh"

!define COHORT_RUN_KEY "Software\Microsoft\Windows\CurrentVersion\Run"
!define COHORT_RUN_VALUE "Cohort"
!define COHORT_PROGRAM "bin\cohort.exe"

;--------------------------------
; Start at sign-in from the finish page (Modern UI's second check box, repurposed).

!define MUI_FINISHPAGE_SHOWREADME ""
!define MUI_FINISHPAGE_SHOWREADME_NOTCHECKED
!define MUI_FINISHPAGE_SHOWREADME_TEXT "Start Cohort when I sign in"
!define MUI_FINISHPAGE_SHOWREADME_FUNCTION CohortEnableAutostart

Function CohortEnableAutostart
  ; Quoting as in Autostart.cpp: "<program>" --minimized
  WriteRegStr HKCU "${COHORT_RUN_KEY}" "${COHORT_RUN_VALUE}" '"$INSTDIR\${COHORT_PROGRAM}" --minimized'
FunctionEnd

;--------------------------------
; Stopping a running program. In: the image name (e.g. cohort.exe) on the stack.

!macro COHORT_DEFINE_STOP_PROGRAM UN
Function ${UN}CohortStopProgram
  Exch $0 ; image name
  Push $1
  Push $2
  Push $3

  ; Is it running? tasklist prints the image name only for a match.
  nsExec::ExecToStack '"$SYSDIR\tasklist.exe" /NH /FI "IMAGENAME eq $0"'
  Pop $1 ; exit code
  Pop $2 ; output
  Push $2
  Push $0
  Call ${UN}StrStr
  Pop $2
  ${If} $2 != ""
    DetailPrint "Asking $0 to quit"
    ; Without /F, taskkill sends WM_CLOSE to the program's windows.
    nsExec::Exec '"$SYSDIR\taskkill.exe" /IM "$0"'
    Pop $1
    StrCpy $3 0
    ${Do}
      Sleep 500
      IntOp $3 $3 + 1
      nsExec::ExecToStack '"$SYSDIR\tasklist.exe" /NH /FI "IMAGENAME eq $0"'
      Pop $1
      Pop $2
      Push $2
      Push $0
      Call ${UN}StrStr
      Pop $2
      ${If} $2 == ""
        ${Break}
      ${EndIf}
      ${If} $3 >= 20
        DetailPrint "Ending $0"
        nsExec::Exec '"$SYSDIR\taskkill.exe" /F /T /IM "$0"'
        Pop $1
        Sleep 1000 ; let Windows release the files
        ${Break}
      ${EndIf}
    ${Loop}
  ${EndIf}

  Pop $3
  Pop $2
  Pop $1
  Pop $0
FunctionEnd
!macroend
!insertmacro COHORT_DEFINE_STOP_PROGRAM ""
!insertmacro COHORT_DEFINE_STOP_PROGRAM "un."

!macro COHORT_STOP_ALL UN
  Push "cohort.exe"
  Call ${UN}CohortStopProgram
  Push "cohortd.exe"
  Call ${UN}CohortStopProgram
  Push "cohort-hub.exe"
  Call ${UN}CohortStopProgram
!macroend

;--------------------------------
; Hooks called from CPack's sections.

; Before any file is written (CPACK_NSIS_EXTRA_PREINSTALL_COMMANDS).
!macro COHORT_BEFORE_INSTALL
  !insertmacro COHORT_STOP_ALL ""
  ; Only a folder that holds our program is cleared: an upgrade, not some other program's folder.
  ${If} ${FileExists} "$INSTDIR\${COHORT_PROGRAM}"
  ${OrIf} ${FileExists} "$INSTDIR\bin\cohortd.exe"
    DetailPrint "Removing the previous version's files"
    RMDir /r "$INSTDIR\bin"
    RMDir /r "$INSTDIR\plugins"
    RMDir /r "$INSTDIR\translations"
  ${EndIf}
!macroend

; After the files and shortcuts (CPACK_NSIS_EXTRA_INSTALL_COMMANDS).
!macro COHORT_AFTER_INSTALL
  ${GetParameters} $R0
  ClearErrors
  ${GetOptions} $R0 "/AUTOSTART" $R1
  ${IfNot} ${Errors}
    Call CohortEnableAutostart
  ${EndIf}
!macroend

; At the start of the uninstaller's section (CPACK_NSIS_EXTRA_UNINSTALL_COMMANDS).
!macro COHORT_UNINSTALL
  !insertmacro COHORT_STOP_ALL "un."
  ; Written by the finish page, /AUTOSTART or the app's Settings; HKCU of the user running the uninstaller.
  DeleteRegValue HKCU "${COHORT_RUN_KEY}" "${COHORT_RUN_VALUE}"

  ; User data stays unless asked. The environment, not $LOCALAPPDATA: the uninstaller runs in the all-users
  ; shell context, where $LOCALAPPDATA would name ProgramData.
  ReadEnvStr $R0 LOCALAPPDATA
  ${If} $R0 != ""
  ${AndIf} ${FileExists} "$R0\Cohort\*.*"
    MessageBox MB_YESNO|MB_ICONQUESTION|MB_DEFBUTTON2 \
      "Also delete your Cohort settings and data in $R0\Cohort?$\n$\nThey include this computer's node key, which your earnings are tied to, and downloaded models. Choose No to keep them for a later installation." \
      /SD IDNO IDNO cohort_keep_user_data
    RMDir /r "$R0\Cohort"
    cohort_keep_user_data:
  ${EndIf}
!macroend
